/** Workers announce themselves every few seconds; /health reports the kinds seen recently. */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { closeUnlessRedisDown } from '#platform';

const BEAT_MS = 5_000;
export const WORKER_SEEN_WINDOW_MS = 20_000;

export class WorkerRegistry {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** Starts heartbeats for a worker of `kind`; returns a stop function. */
  announce(kind: string): () => Promise<void> {
    const id = `${kind}:${process.pid}:${randomUUID().slice(0, 8)}`;
    const key = this.key(kind);
    // The set expires with its last heartbeat: no key outlives the workers that write it.
    const beat = () =>
      this.redis
        .multi()
        .zadd(key, Date.now(), id)
        .pexpire(key, WORKER_SEEN_WINDOW_MS * 2)
        .exec()
        .catch(() => null);
    void beat();
    const timer = setInterval(() => void beat(), BEAT_MS);
    timer.unref();
    return async () => {
      clearInterval(timer);
      // Leaving at once is a courtesy to /health; during an outage the entry ages out of the window instead.
      await closeUnlessRedisDown(this.redis, () => this.redis.zrem(key, id));
    };
  }

  async seen(kind: string): Promise<number> {
    const key = this.key(kind);
    const since = Date.now() - WORKER_SEEN_WINDOW_MS;
    await this.redis.zremrangebyscore(key, '-inf', since - WORKER_SEEN_WINDOW_MS);
    return this.redis.zcount(key, since, '+inf');
  }

  private key(kind: string): string {
    return `${this.prefix}:workers:${kind}`;
  }
}
