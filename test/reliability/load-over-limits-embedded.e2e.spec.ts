/**
 * Load over the limits (support/over-limits.ts) on the embedded default `npm start` runs when neither DATABASE_URL
 * nor REDIS_URL is set: the embedded Postgres server and the local redis-server, started by the same code
 * (ensureLocalServices) in a data directory of the test's own. The same invariants hold as on the system Postgres.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { migrate } from '#db';
import { ensureLocalServices } from '#platform';
import { MIGRATIONS_DIR } from '../support/env.js';
import { describeLoadOverLimits } from './support/over-limits.js';

describeLoadOverLimits({
  name: 'the embedded default',
  start: async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'trawl-embedded-'));
    // mkdtemp makes it 0700; as root, Postgres runs as another user, which must be able to enter it (as DATA_DIR can).
    await chmod(dataDir, 0o755);
    const services = await ensureLocalServices({ dataDir }, () => undefined);
    await migrate(services.databaseUrl, MIGRATIONS_DIR);
    return {
      database: { url: services.databaseUrl, name: 'postgres', drop: async () => undefined },
      env: { REDIS_URL: services.redisUrl! },
      stop: async () => {
        await services.stop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  },
});
