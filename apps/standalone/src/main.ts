/**
 * `npm start`: gateway and all workers in one process, with an embedded Postgres and a local redis-server when
 * DATABASE_URL / REDIS_URL are not set. The whole configuration is validated before any service starts; migrations
 * are applied, then it says how to get a first API key. Anything that fails after a local service started stops it.
 */
import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig, type TrawlConfig } from '#config';
import { migrate } from '#db';
import { createLogger, ensureLocalServices, logFormatFor, useLogFormat, type LocalServices } from '#platform';
import { banner, startLines, type BannerFacts } from './banner.js';
import { createStandaloneApp } from './standalone.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

let base: TrawlConfig;
try {
  base = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`trawl: ${error.message}\n`);
  process.exit(1);
}
// At a terminal: readable lines and a banner; JSON lines for anything else (a collector, a test, a pipe).
const format = logFormatFor(base.LOG_FORMAT, process.stdout.isTTY === true);
useLogFormat(format);
// These lines are the first-run instructions: shown at every level but silent, in the same pino shape as the rest.
const log = createLogger(base.LOG_LEVEL === 'silent' ? 'silent' : 'info', 'trawl');
const say = (message: string) => log.info(message);

let services: LocalServices | undefined;
/** Stops what was started here and exits: the one way out once a local service may be running. */
async function exit(code: number, message?: string): Promise<never> {
  if (message) say(message);
  await services?.stop().catch(() => undefined);
  process.exit(code);
}

let app: Awaited<ReturnType<typeof createStandaloneApp>>;
let port: number;
try {
  services = await ensureLocalServices({ dataDir: base.DATA_DIR, databaseUrl: base.DATABASE_URL, redisUrl: base.REDIS_URL }, say);
  const config = { ...base, DATABASE_URL: services.databaseUrl, REDIS_URL: services.redisUrl ?? undefined };
  const outcome = await migrate(services.databaseUrl, path.join(repoRoot, 'prisma/migrations'));
  say(`migrations: ${outcome.applied.length} applied, ${outcome.alreadyApplied.length} already in place`);
  app = await createStandaloneApp(config);
  try {
    await app.listen(config.PORT, config.HOST);
  } catch (error) {
    await app.close().catch(() => undefined);
    const busy = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
    await exit(1, busy ? `Port ${config.PORT} on ${config.HOST} is already in use: set PORT to a free port` : `Could not listen: ${String(error)}`);
  }
  port = (app.getHttpServer().address() as AddressInfo).port;
} catch (error) {
  await exit(1, `Trawl could not start: ${error instanceof Error ? error.message : String(error)}`);
}
const facts: BannerFacts = {
  url: `http://${base.HOST}:${port!}`,
  processes: `gateway + ${base.STANDALONE_WORKERS.map((w) => `worker-${w}`).join(' + ')}`,
  adminToken: base.ADMIN_TOKEN !== undefined,
};
if (format === 'pretty' && base.LOG_LEVEL !== 'silent') process.stdout.write(banner(facts, process.stdout.hasColors?.() === true));
else for (const line of startLines(facts)) say(line);

/** Ctrl-C / SIGTERM: stop taking requests and jobs, then the services, within a bound; a second signal forces it. */
const SHUTDOWN_BOUND_MS = 15_000;
/**
 * One Ctrl-C on `npm start` arrives twice: from the terminal (to the whole foreground group) and forwarded by npm,
 * milliseconds apart. A repeat this soon is that copy; a person's second Ctrl-C comes later.
 */
const SAME_SIGNAL_MS = 500;
let stopping = false;
let stoppingAt = 0;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) {
      if (Date.now() - stoppingAt < SAME_SIGNAL_MS) return;
      void exit(1, `${signal} again: exiting now`);
      return;
    }
    stopping = true;
    stoppingAt = Date.now();
    say(`${signal}: shutting down`);
    const bound = setTimeout(() => void exit(1, `shutdown took longer than ${SHUTDOWN_BOUND_MS} ms: stopping the services anyway`), SHUTDOWN_BOUND_MS);
    bound.unref();
    void app
      .close()
      .catch(() => undefined)
      .then(() => exit(0));
  });
}
