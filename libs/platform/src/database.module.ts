/** Postgres: the Database (pg pool + Prisma) and the repositories over it. */
import { Global, Module, type OnApplicationShutdown } from '@nestjs/common';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { AccountsRepository, CrawlsRepository, Database, FrontierRepository, LedgerRepository, RequestLogRepository } from '#db';

@Global()
@Module({
  providers: [
    {
      provide: Database,
      inject: [TRAWL_CONFIG],
      useFactory: (config: TrawlConfig) => {
        if (!config.DATABASE_URL) throw new Error('DATABASE_URL is not set (npm start sets it when it runs the embedded Postgres)');
        return new Database(config.DATABASE_URL, config.DATABASE_POOL_SIZE, { synchronousCommit: config.DATABASE_SYNCHRONOUS_COMMIT });
      },
    },
    { provide: AccountsRepository, inject: [Database], useFactory: (db: Database) => new AccountsRepository(db) },
    { provide: LedgerRepository, inject: [Database], useFactory: (db: Database) => new LedgerRepository(db) },
    { provide: RequestLogRepository, inject: [Database], useFactory: (db: Database) => new RequestLogRepository(db) },
    { provide: CrawlsRepository, inject: [Database], useFactory: (db: Database) => new CrawlsRepository(db) },
    { provide: FrontierRepository, inject: [Database], useFactory: (db: Database) => new FrontierRepository(db) },
  ],
  exports: [Database, AccountsRepository, LedgerRepository, RequestLogRepository, CrawlsRepository, FrontierRepository],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(private readonly db: Database) {}

  async onApplicationShutdown(): Promise<void> {
    await this.db.close();
  }
}
