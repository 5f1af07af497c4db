/** ioredis connections configured the way BullMQ needs them (no per-command retry limit on blocking clients). */
import { Redis } from 'ioredis';

export function createRedis(url: string, name: string): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, connectionName: name, lazyConnect: false });
  // Connection errors are retried by ioredis; health checks report them. Never crash the process on one.
  redis.on('error', () => undefined);
  return redis;
}
