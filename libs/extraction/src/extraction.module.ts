/** One format-pipeline pool per process (its worker threads are shared by every engine the process hosts). */
import { Global, Module, type OnApplicationShutdown } from '@nestjs/common';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { ExtractionPool } from './pool.js';

@Global()
@Module({
  providers: [
    {
      provide: ExtractionPool,
      inject: [TRAWL_CONFIG],
      useFactory: (c: TrawlConfig) =>
        new ExtractionPool({
          threads: c.EXTRACTION_THREADS,
          markdownConverter: c.MARKDOWN_CONVERTER,
          maxDocumentPages: c.PDF_MAX_PAGES,
          // A DOCX is a ZIP: its parts may unpack to ten times the body's cap, no more (a zip bomb fails at the cap).
          maxUnpackedBytes: 10 * c.CRAWL_MAX_BYTES,
        }),
    },
  ],
  exports: [ExtractionPool],
})
export class ExtractionModule implements OnApplicationShutdown {
  constructor(private readonly pool: ExtractionPool) {}

  async onApplicationShutdown(): Promise<void> {
    await this.pool.close();
  }
}
