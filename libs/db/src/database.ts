/**
 * The Postgres connection shared by Prisma (admin and reads) and the hot-path repositories (one-statement SQL).
 */
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client.js';

// int8 (credits, balances, counts) as JavaScript numbers: exact up to 2^53, far above any balance Trawl grants.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

export class Database {
  readonly pool: pg.Pool;
  /**
   * Connections whose commits Postgres acknowledges before their WAL is on disk (`synchronous_commit=off`), for
   * writes whose loss in a Postgres crash is harmless: the ledger's reserves (see LedgerRepository.reserve). A later
   * synchronous commit on any connection flushes the WAL before it, theirs included.
   */
  readonly relaxedPool: pg.Pool;
  readonly prisma: PrismaClient;

  constructor(connectionString: string, poolSize = 10, options: { synchronousCommit?: 'on' | 'off' } = {}) {
    this.pool = new pg.Pool({
      connectionString,
      max: poolSize,
      idleTimeoutMillis: 30_000,
      ...(options.synchronousCommit === 'off' ? { options: '-c synchronous_commit=off' } : {}),
    });
    this.relaxedPool = new pg.Pool({ connectionString, max: Math.ceil(poolSize / 2), idleTimeoutMillis: 30_000, options: '-c synchronous_commit=off' });
    // A dropped idle connection must not crash the process; the pool replaces it.
    this.pool.on('error', () => undefined);
    this.relaxedPool.on('error', () => undefined);
    this.prisma = new PrismaClient({ adapter: new PrismaPg(this.pool) });
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async close(): Promise<void> {
    await this.prisma.$disconnect();
    await Promise.all([this.pool.end().catch(() => undefined), this.relaxedPool.end().catch(() => undefined)]);
  }
}
