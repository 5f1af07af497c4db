/** `/openapi.json` and `/docs`: the API description and its readable page, without a key (nothing about accounts). */
import { Controller, Get, Header, Inject } from '@nestjs/common';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { openApiDocument } from './openapi.document.js';
import { referencePage } from './reference-page.js';

@Controller()
export class OpenApiController {
  private readonly document: Record<string, unknown>;
  private readonly page: string;

  constructor(@Inject(TRAWL_CONFIG) config: TrawlConfig) {
    this.document = openApiDocument(config);
    this.page = referencePage(this.document);
  }

  @Get('openapi.json')
  openapi(): Record<string, unknown> {
    return this.document;
  }

  @Get('docs')
  @Header('content-type', 'text/html; charset=utf-8')
  docs(): string {
    return this.page;
  }
}
