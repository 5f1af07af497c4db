/** ioredis connections configured the way BullMQ needs them (no per-command retry limit on blocking clients). */
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { createLogger } from './logger.js';
import { ErrorCode, TrawlError } from '#contracts';

/** One log line per connection per window while Redis is down: an outage retries every few hundred ms. */
export const REDIS_ERROR_LOG_INTERVAL_MS = 30_000;

let defaultLog: Logger | undefined;

export interface RedisLogOptions {
  /** Where connection errors go (the CLI passes its stderr logger); a pino logger on stdout by default. */
  log?: Pick<Logger, 'warn'>;
  intervalMs?: number;
}

export function createRedis(url: string, name: string, options: RedisLogOptions = {}): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, connectionName: name, lazyConnect: false });
  logRedisErrors(redis, name, options);
  trackOutages(redis);
  return redis;
}

/** Connections that lost Redis and have not been ready since (between retries ioredis passes through 'connecting'). */
const lost = new WeakSet<Redis>();

function trackOutages(redis: Redis): void {
  redis.on('close', () => lost.add(redis));
  redis.on('ready', () => lost.delete(redis));
}

/**
 * Whether Redis is unreachable on this connection: it dropped and has not come back. A command sent now would wait
 * in ioredis' offline queue until Redis returns (`maxRetriesPerRequest: null`), past any request deadline, so
 * callers on a request's path refuse instead. A connection still making its first connection is not down.
 */
export function isRedisDown(redis: Redis): boolean {
  return lost.has(redis) || redis.status === 'reconnecting' || redis.status === 'close' || redis.status === 'end';
}

/**
 * Throws SERVICE_UNAVAILABLE while `redis` is unreachable: ioredis would hold a command until Redis returns, and
 * the call waiting on it, past any deadline.
 */
export function assertRedisUp(redis: Redis): void {
  if (isRedisDown(redis)) throw new TrawlError(ErrorCode.SERVICE_UNAVAILABLE, 'The queue (Redis) is unavailable; retry shortly', 'transient');
}

/**
 * A second connection with `connection`'s options, for a blocking client (BullMQ Worker, QueueEvents). ioredis'
 * `duplicate()` copies options but not listeners: without its own 'error' listener a duplicate prints
 * "Unhandled error event" stack traces on every reconnect attempt during an outage.
 */
/**
 * A second connection to the same Redis. `autoPipelining`: commands issued in one tick go out in one write — for a
 * connection many concurrent tasks share (a crawl coordinator's frontier), never for a blocking client.
 */
export function duplicateRedis(connection: Redis, name: string, options: RedisLogOptions & { autoPipelining?: boolean } = {}): Redis {
  const duplicate = connection.duplicate({ connectionName: name, enableAutoPipelining: options.autoPipelining ?? false });
  logRedisErrors(duplicate, name, options);
  return duplicate;
}

/**
 * Connection errors are retried by ioredis and health checks report them, so they must never crash the process:
 * log them as JSON, the first at once and then one line per interval with the count of those not logged.
 */
export function logRedisErrors(redis: Redis, name: string, options: RedisLogOptions = {}): void {
  const intervalMs = options.intervalMs ?? REDIS_ERROR_LOG_INTERVAL_MS;
  let lastLoggedAt = Number.NEGATIVE_INFINITY;
  let suppressed = 0;
  redis.on('error', (error: Error) => {
    const now = Date.now();
    if (now - lastLoggedAt < intervalMs) {
      suppressed++;
      return;
    }
    const log = options.log ?? (defaultLog ??= createLogger('warn', 'trawl-redis'));
    log.warn({ err: error, connection: name, suppressed }, 'redis connection error');
    lastLoggedAt = now;
    suppressed = 0;
  });
}

/**
 * Runs a graceful close that needs Redis (a Worker finishing its jobs, QUIT, a last ZREM) — unless Redis is
 * unreachable: then the commands would wait in ioredis' offline queue until it returns (`maxRetriesPerRequest:
 * null`), and a SIGTERM during an outage would never end the process. When the connection is not ready, or drops
 * while waiting, the close is abandoned and `abandon` (drop the connections, never wait on them) runs instead.
 */
export async function closeUnlessRedisDown(connection: Redis, close: () => Promise<unknown>, abandon: () => unknown = () => undefined): Promise<'closed' | 'abandoned'> {
  if (connection.status !== 'ready') {
    await abandon();
    return 'abandoned';
  }
  let onDown = (): void => undefined;
  const down = new Promise<'abandoned'>((resolve) => {
    onDown = () => resolve('abandoned');
    connection.once('close', onDown);
  });
  // An error while closing is not worth failing the shutdown for; the connection goes anyway.
  const closed = close().then(
    () => 'closed' as const,
    () => 'closed' as const,
  );
  const outcome = await Promise.race([closed, down]);
  connection.off('close', onDown);
  if (outcome === 'abandoned') await abandon();
  return outcome;
}
