/**
 * `npm start`: gateway and all workers in one process, with an embedded Postgres and a local redis-server when
 * DATABASE_URL / REDIS_URL are not set. Applies migrations, then says how to get a first API key.
 */
import 'reflect-metadata';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '#config';
import { migrate } from '#db';
import { createLogger, ensureLocalServices } from '#platform';
import { createStandaloneApp } from './standalone.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

const base = loadConfig();
// These lines are the first-run instructions: shown at every level but silent, in the same pino shape as the rest.
const log = createLogger(base.LOG_LEVEL === 'silent' ? 'silent' : 'info', 'trawl');
const say = (message: string) => log.info(message);
const services = await ensureLocalServices({ dataDir: base.DATA_DIR, databaseUrl: base.DATABASE_URL, redisUrl: base.REDIS_URL }, say);
const config = { ...base, DATABASE_URL: services.databaseUrl, REDIS_URL: services.redisUrl ?? undefined };
const outcome = await migrate(services.databaseUrl, path.join(repoRoot, 'prisma/migrations'));
say(`migrations: ${outcome.applied.length} applied, ${outcome.alreadyApplied.length} already in place`);

const app = await createStandaloneApp(config);
try {
  await app.listen(config.PORT, config.HOST);
} catch (error) {
  const busy = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
  say(busy ? `Port ${config.PORT} on ${config.HOST} is already in use: set PORT to a free port` : `Could not listen: ${String(error)}`);
  await app.close().catch(() => undefined);
  await services.stop();
  process.exit(1);
}
const url = `http://${config.HOST}:${config.PORT}`;
say(`Trawl is listening on ${url} (gateway + ${config.STANDALONE_WORKERS.map((w) => `worker-${w}`).join(' + ')})`);
say(`Create an account and its first API key: npm run trawl -- accounts:create --name "My team" --plan free`);
say(`Then: curl -H "x-api-key: <KEY>" "${url}/crawl?urls=https://example.com"`);

/** Ctrl-C / SIGTERM: stop taking requests and jobs, then the services, within a bound; a second signal forces it. */
const SHUTDOWN_BOUND_MS = 15_000;
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) {
      say(`${signal} again: exiting now`);
      void services.stop().finally(() => process.exit(1));
      return;
    }
    stopping = true;
    say(`${signal}: shutting down`);
    const bound = setTimeout(() => {
      say(`shutdown took longer than ${SHUTDOWN_BOUND_MS} ms: stopping the services anyway`);
      void services.stop().finally(() => process.exit(1));
    }, SHUTDOWN_BOUND_MS);
    bound.unref();
    void app
      .close()
      .catch(() => undefined)
      .then(() => services.stop())
      .finally(() => process.exit(0));
  });
}
