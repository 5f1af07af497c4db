/**
 * Per-account concurrency limit across every gateway replica: a Redis sorted set of leases scored by expiry.
 * Acquire prunes expired leases and adds one only under the limit, atomically (Lua); a live request renews its
 * lease; a crashed gateway's leases simply expire.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { assertRedisUp, isRedisDown } from '#platform';

const ACQUIRE = `
local now = redis.call('TIME')
local nowMs = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', nowMs)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], nowMs + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 2)
return 1`;

const RENEW = `
local now = redis.call('TIME')
local nowMs = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
if redis.call('ZSCORE', KEYS[1], ARGV[2]) == false then return 0 end
redis.call('ZADD', KEYS[1], nowMs + tonumber(ARGV[1]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]) * 2)
return 1`;

type GateRedis = Redis & {
  trawlGateAcquire(key: string, limit: number, ttlMs: number, lease: string): Promise<number>;
  trawlGateRenew(key: string, ttlMs: number, lease: string): Promise<number>;
};

export interface Lease {
  readonly id: string;
  release(): Promise<void>;
}

export class ConcurrencyGate {
  private readonly redis: GateRedis;

  constructor(
    redis: Redis,
    private readonly keyPrefix: string,
    private readonly leaseMs: number,
  ) {
    redis.defineCommand('trawlGateAcquire', { numberOfKeys: 1, lua: ACQUIRE });
    redis.defineCommand('trawlGateRenew', { numberOfKeys: 1, lua: RENEW });
    this.redis = redis as GateRedis;
  }

  /**
   * A lease, or null when the account already has `limit` requests in flight. Refused at once with 503
   * SERVICE_UNAVAILABLE while Redis is unreachable: ioredis would hold the command until Redis returns, and the
   * call with it, past any deadline.
   */
  async acquire(accountId: string, limit: number): Promise<Lease | null> {
    assertRedisUp(this.redis);
    const key = this.key(accountId);
    const id = randomUUID();
    const ok = await this.redis.trawlGateAcquire(key, limit, this.leaseMs, id);
    if (ok !== 1) return null;
    const timer = setInterval(() => {
      this.redis.trawlGateRenew(key, this.leaseMs, id).catch(() => undefined);
    }, Math.max(250, Math.floor(this.leaseMs / 3)));
    timer.unref();
    let released = false;
    return {
      id,
      release: async () => {
        if (released) return;
        released = true;
        clearInterval(timer);
        // During an outage the lease is not worth waiting for: it expires by itself within CONCURRENCY_LEASE_MS.
        if (isRedisDown(this.redis)) return;
        await this.redis.zrem(key, id);
      },
    };
  }

  /** Leases currently held (expired ones excluded). */
  async inFlight(accountId: string): Promise<number> {
    const t = await this.redis.time();
    const nowMs = Number(t[0]) * 1000 + Math.floor(Number(t[1]) / 1000);
    return this.redis.zcount(this.key(accountId), `(${nowMs}`, '+inf');
  }

  private key(accountId: string): string {
    return `${this.keyPrefix}:gate:{${accountId}}`;
  }
}
