/**
 * Outage errors are recognised as they really arrive — from pg, Prisma's adapter and ioredis against a private
 * Postgres and Redis that the test stops — and turned into SERVICE_UNAVAILABLE; anything else is left alone.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import pg from 'pg';
import { ErrorCode, TrawlError } from '#contracts';
import { Database } from '#db';
import { startPrivatePostgres, type PrivatePostgres } from '#test/support/private-postgres.js';
import { startPrivateRedis, type PrivateRedis } from '#test/support/private-redis.js';
import { isOutage, outageError } from './outage.js';

let postgres: PrivatePostgres;
let redis: PrivateRedis;

beforeAll(async () => {
  [postgres, redis] = await Promise.all([startPrivatePostgres(), startPrivateRedis()]);
}, 60_000);

afterAll(async () => {
  await Promise.all([postgres?.close(), redis?.close()]);
});

const failure = (work: () => Promise<unknown>) => work().then(() => new Error('did not fail'), (error: unknown) => error);

describe('outage errors', () => {
  it('are what pg, Prisma and ioredis throw when Postgres or Redis goes away, and become SERVICE_UNAVAILABLE', async () => {
    const pool = new pg.Pool({ connectionString: postgres.adminUrl, max: 1 });
    pool.on('error', () => undefined);
    const db = new Database(postgres.adminUrl, 1);
    const client = new Redis(redis.url, { maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      // A query that is itself wrong is not an outage.
      const syntax = await failure(() => pool.query('SELEC 1'));
      expect(isOutage(syntax)).toBe(false);
      await pool.query('SELECT 1');
      await db.prisma.$queryRaw`SELECT 1`;
      await client.ping();

      // Stopped under open connections, then refused outright.
      const running = failure(() => pool.query('SELECT pg_sleep(30)'));
      await postgres.stop('fast');
      await redis.kill();
      const dropped = await running;
      const refused = await failure(() => pool.query('SELECT 1'));
      const prisma = await failure(() => db.prisma.$queryRaw`SELECT 1`);
      const redisGone = await failure(() => client.ping());
      for (const error of [dropped, refused, prisma, redisGone]) {
        expect([String(error), isOutage(error)]).toEqual([String(error), true]);
      }
      expect(outageError(refused)).toMatchObject({ code: ErrorCode.SERVICE_UNAVAILABLE, kind: 'transient' });
      expect(outageError(new TrawlError(ErrorCode.TIMEOUT, 'late'))).toBeNull();
      expect(outageError(new Error('a bug'))).toBeNull();
    } finally {
      client.disconnect();
      await pool.end().catch(() => undefined);
      await db.close();
    }
  }, 60_000);
});
