/**
 * A real Trawl for end-to-end tests: the standalone app (gateway + workers) on a random loopback port, a fresh
 * migrated Postgres database, and an isolated Redis key prefix. Loopback crawling is enabled explicitly. Every
 * upstream (Google, Bing, DuckDuckGo, Nominatim, Overpass) is a closed loopback port unless the test sets a fixture;
 * `resolve` replaces the system's DNS resolver in the workers' SSRF checks. The workers hosted are `npm start`'s
 * default (`STANDALONE_WORKERS`: http, render and headful — the browsers start only on their first job), unless the
 * test passes its own list because it needs one (a queue nothing consumes, a worker kind alone).
 */
import { randomUUID } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Redis } from 'ioredis';
import { AccountAdminService, type CreatedAccount } from '#billing';
import { loadConfig, type TrawlConfig } from '#config';
import { Database, LedgerRepository } from '#db';
import { createStandaloneApp } from '#apps/standalone/src/standalone.js';
import { createGatewayApp } from '#apps/gateway/src/bootstrap.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { TEST_REDIS_URL } from './env.js';
import { OFFLINE_UPSTREAMS } from './offline.js';
import type { DnsResolver } from '#fetch';

export interface Harness {
  baseUrl: string;
  config: TrawlConfig;
  app: NestFastifyApplication;
  db: Database;
  ledger: LedgerRepository;
  admin: AccountAdminService;
  redis: Redis;
  createAccount(plan?: string): Promise<CreatedAccount>;
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

export async function startHarness(
  env: Record<string, string> = {},
  options: { database?: TestDatabase; inProcessWorkers?: boolean; resolve?: DnsResolver } = {},
): Promise<Harness> {
  const database = options.database ?? (await createTestDatabase());
  const config = loadConfig({
    DATABASE_URL: database.url,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: `trawl-test-${randomUUID().slice(0, 8)}`,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    ALLOW_PRIVATE_ADDRESSES: 'true',
    ADMIN_TOKEN: 'test-admin-token-0123456789',
    JOB_BACKOFF_MS: '50',
    // Jest runs the TypeScript sources, which worker threads cannot load; the threaded pool is tested on the build.
    EXTRACTION_THREADS: '0',
    ...OFFLINE_UPSTREAMS,
    ...env,
  });
  const app = options.inProcessWorkers === false ? await createGatewayApp(config) : await createStandaloneApp(config, { resolve: options.resolve });
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as import('node:net').AddressInfo;
  const baseUrl = `http://127.0.0.1:${address.port}`;
  const db = new Database(database.url, 5);
  const redis = new Redis(TEST_REDIS_URL);
  const admin = app.get(AccountAdminService);
  return {
    baseUrl,
    config,
    app,
    db,
    ledger: new LedgerRepository(db),
    admin,
    redis,
    createAccount: (plan = 'free') => admin.create(`test-${randomUUID().slice(0, 6)}`, plan),
    get: async (path, headers = {}) => {
      const response = await fetch(`${baseUrl}${path}`, { headers });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      return { status: response.status, body, headers: response.headers };
    },
    close: async () => {
      await app.close();
      await db.close();
      await deleteKeys(redis, `${config.REDIS_PREFIX}:*`);
      redis.disconnect();
      if (!options.database) await database.drop();
    },
  };
}

export const key = (apiKey: string) => ({ 'x-api-key': apiKey });

/** Removes every key a test instance wrote (its prefix is its own), so test runs leave nothing in Redis. */
export async function deleteKeys(redis: Redis, pattern: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    if (keys.length > 0) await redis.unlink(...keys);
    cursor = next;
  } while (cursor !== '0');
}
