/**
 * A crawl's frontier state in Redis, shared by every process that works on it: the seen-set (hashes of URL keys, so
 * no URL is admitted twice), the pending map (URLs admitted and not finished, hash → its job's data, so a job lost
 * between admission and enqueueing can be enqueued again; the crawl is done when it drains),
 * the page limit and per-path-shape counts (trap caps), and politeness — a per-crawl and a per-host cap on pages in
 * flight and a minimum gap between request starts, held as leases that expire, so a process that dies holding one
 * frees it by itself. Every change is one Lua script (atomic across replicas); a crawl's keys share a hash tag.
 */
import type { Redis } from 'ioredis';

const ADMIT = `
local limit = tonumber(ARGV[1])
local cap = tonumber(ARGV[2])
local admitted = tonumber(redis.call('HGET', KEYS[3], 'admitted') or '0')
if redis.call('HGET', KEYS[3], 'stopped') == '1' then return {} end
local out = {}
for i = 3, #ARGV, 3 do
  local h = ARGV[i]
  local shape = ARGV[i + 1]
  local entry = ARGV[i + 2]
  if redis.call('SISMEMBER', KEYS[1], h) == 1 then
    out[#out + 1] = 0
  elseif admitted >= limit then
    out[#out + 1] = 2
  elseif cap > 0 and tonumber(redis.call('HGET', KEYS[4], shape) or '0') >= cap then
    redis.call('SADD', KEYS[1], h)
    out[#out + 1] = 3
  else
    redis.call('SADD', KEYS[1], h)
    redis.call('HSET', KEYS[2], h, entry)
    redis.call('HINCRBY', KEYS[4], shape, 1)
    admitted = admitted + 1
    out[#out + 1] = 1
  end
end
redis.call('HSET', KEYS[3], 'admitted', admitted)
return out`;

const FINISH = `
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], 'touched', ARGV[2])
if redis.call('HLEN', KEYS[1]) == 0 and redis.call('HGET', KEYS[2], 'seeded') == '1' then return 1 end
return 0`;

const CLAIM = `
local stored = tonumber(redis.call('HGET', KEYS[1], 'stored') or '0')
if stored >= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'stored', stored + 1)
if stored + 1 >= tonumber(ARGV[1]) then return 2 end
return 1`;

const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local token = ARGV[5]
local lease = tonumber(ARGV[6])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
if redis.call('ZSCORE', KEYS[1], token) then return 0 end
local wait = 0
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then wait = 100 end
local crawlNext = tonumber(redis.call('GET', KEYS[2]) or '0')
if crawlNext > now then wait = math.max(wait, crawlNext - now) end
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[3]) then wait = math.max(wait, 100) end
local hostNext = tonumber(redis.call('GET', KEYS[4]) or '0')
if hostNext > now then wait = math.max(wait, hostNext - now) end
if wait > 0 then return wait end
redis.call('ZADD', KEYS[1], now + lease, token)
redis.call('PEXPIRE', KEYS[1], lease * 2)
redis.call('ZADD', KEYS[3], now + lease, token)
redis.call('PEXPIRE', KEYS[3], lease * 2)
local crawlGap = tonumber(ARGV[2])
local hostGap = tonumber(ARGV[4])
if crawlGap > 0 then redis.call('SET', KEYS[2], now + crawlGap, 'PX', crawlGap + 1000) end
if hostGap > 0 then redis.call('SET', KEYS[4], now + hostGap, 'PX', hostGap + 1000) end
return 0`;

type FrontierRedis = Redis & {
  trawlFrontierAdmit(seen: string, pending: string, meta: string, shapes: string, ...args: Array<string | number>): Promise<number[]>;
  trawlFrontierFinish(pending: string, meta: string, hash: string, now: number): Promise<number>;
  trawlFrontierClaim(meta: string, limit: number): Promise<number>;
  trawlFrontierAcquire(crawlSlots: string, crawlNext: string, hostSlots: string, hostNext: string, ...args: Array<string | number>): Promise<number>;
};

export type Admission = 'admitted' | 'seen' | 'over-limit' | 'trap';
const ADMISSION: Record<number, Admission> = { 0: 'seen', 1: 'admitted', 2: 'over-limit', 3: 'trap' };

export interface Politeness {
  /** Pages of this crawl in flight at once, and the least gap between two of its request starts. */
  crawlCap: number;
  crawlGapMs: number;
  /** Pages in flight on one host (across every crawl), and the least gap between two request starts there. */
  hostCap: number;
  hostGapMs: number;
}

export class FrontierStore {
  private readonly redis: FrontierRedis;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    redis.defineCommand('trawlFrontierAdmit', { numberOfKeys: 4, lua: ADMIT });
    redis.defineCommand('trawlFrontierFinish', { numberOfKeys: 2, lua: FINISH });
    redis.defineCommand('trawlFrontierAcquire', { numberOfKeys: 4, lua: ACQUIRE });
    redis.defineCommand('trawlFrontierClaim', { numberOfKeys: 1, lua: CLAIM });
    this.redis = redis as FrontierRedis;
  }

  private key(crawlId: string, name: string): string {
    return `${this.prefix}:crawl:{${crawlId}}:${name}`;
  }

  private hostKey(host: string, name: string): string {
    return `${this.prefix}:host:{${host}}:${name}`;
  }

  async init(crawlId: string, limit: number): Promise<void> {
    await this.redis.hset(this.key(crawlId, 'meta'), 'limit', limit, 'admitted', 0, 'touched', Date.now());
  }

  /**
   * Admits candidates in order: each its URL-key hash, its path shape (for the trap cap) and what its job carries
   * (`entry`, kept while it is pending). One outcome per candidate.
   */
  async admit(crawlId: string, limit: number, shapeCap: number, candidates: Array<{ hash: string; shape: string; entry: string }>): Promise<Admission[]> {
    if (candidates.length === 0) return [];
    const args = candidates.flatMap((c) => [c.hash, c.shape, c.entry]);
    const out = await this.redis.trawlFrontierAdmit(
      this.key(crawlId, 'seen'), this.key(crawlId, 'pending'), this.key(crawlId, 'meta'), this.key(crawlId, 'shapes'),
      limit, shapeCap, ...args,
    );
    // A stopped crawl admits nothing (the script returns no outcomes).
    return candidates.map((_, i) => ADMISSION[out[i] ?? 2]);
  }

  /**
   * One of the crawl's `limit` stored pages, claimed before a page is stored: `full` when none is left (the page is
   * not stored), `last` when this claim took the last one (the crawl stops taking URLs).
   */
  async claimPage(crawlId: string, limit: number): Promise<'ok' | 'last' | 'full'> {
    const out = await this.redis.trawlFrontierClaim(this.key(crawlId, 'meta'), limit);
    return out === 0 ? 'full' : out === 2 ? 'last' : 'ok';
  }

  /** Gives a claim back (the page turned out a duplicate, or this reservation had stored it already). */
  async unclaimPage(crawlId: string): Promise<void> {
    await this.redis.hincrby(this.key(crawlId, 'meta'), 'stored', -1);
  }

  /** Pages claimed so far (stored, or being stored). */
  async storedPages(crawlId: string): Promise<number> {
    return Number((await this.redis.hget(this.key(crawlId, 'meta'), 'stored')) ?? 0);
  }

  /** Marks a URL key as seen (a redirect target, a canonical): true when it was not seen before. */
  async markSeen(crawlId: string, hash: string): Promise<boolean> {
    return (await this.redis.sadd(this.key(crawlId, 'seen'), hash)) === 1;
  }

  /** Seeding is done: from now on the crawl finishes when its pending set drains. True when it is already empty. */
  async seeded(crawlId: string): Promise<boolean> {
    const [, [, left]] = (await this.redis
      .multi()
      .hset(this.key(crawlId, 'meta'), 'seeded', 1)
      .hlen(this.key(crawlId, 'pending'))
      .exec()) as [[null, number], [null, number]];
    return left === 0;
  }

  /** A URL is finished (stored, failed or skipped): true when it was the last one of a seeded crawl. */
  async finish(crawlId: string, hash: string): Promise<boolean> {
    return (await this.redis.trawlFrontierFinish(this.key(crawlId, 'pending'), this.key(crawlId, 'meta'), hash, Date.now())) === 1;
  }

  /** Whether the crawl still has URLs to finish, whether seeding is done, when a URL last finished (null when its keys are gone). */
  async progress(crawlId: string): Promise<{ pending: number; seeded: boolean; stopped: boolean; touched: number } | null> {
    const [[, meta], [, pending]] = (await this.redis
      .multi()
      .hgetall(this.key(crawlId, 'meta'))
      .hlen(this.key(crawlId, 'pending'))
      .exec()) as [[null, Record<string, string>], [null, number]];
    if (!meta || Object.keys(meta).length === 0) return null;
    return { pending, seeded: meta.seeded === '1', stopped: meta.stopped === '1', touched: Number(meta.touched ?? 0) };
  }

  /** The pending entries, a batch at a time (the sweeper re-enqueues those whose job is gone). */
  async *pending(crawlId: string): AsyncGenerator<Array<{ hash: string; entry: string }>> {
    let cursor = '0';
    do {
      const [next, flat] = await this.redis.hscan(this.key(crawlId, 'pending'), cursor, 'COUNT', 500);
      cursor = next;
      const batch: Array<{ hash: string; entry: string }> = [];
      for (let i = 0; i < flat.length; i += 2) batch.push({ hash: flat[i], entry: flat[i + 1] });
      if (batch.length) yield batch;
    } while (cursor !== '0');
  }

  /** Marks the crawl as active now (the sweeper's stall clock starts again). */
  async touch(crawlId: string): Promise<void> {
    await this.redis.hset(this.key(crawlId, 'meta'), 'touched', Date.now());
  }

  /** No URL of the crawl starts from now on (cancelled, out of credits, finished). */
  async stop(crawlId: string): Promise<void> {
    await this.redis.hset(this.key(crawlId, 'meta'), 'stopped', 1);
  }

  async isStopped(crawlId: string): Promise<boolean> {
    return (await this.redis.hget(this.key(crawlId, 'meta'), 'stopped')) === '1';
  }

  /**
   * A politeness slot for one page, or how long to wait (ms) for one. `token` identifies the page: asking again
   * with the same token (a retried job) finds the slot it holds. The slot is a lease: it expires after `leaseMs`.
   */
  async acquire(crawlId: string, host: string, token: string, rules: Politeness, leaseMs: number): Promise<number> {
    return this.redis.trawlFrontierAcquire(
      this.key(crawlId, 'slots'), this.key(crawlId, 'next'), this.hostKey(host, 'slots'), this.hostKey(host, 'next'),
      rules.crawlCap, rules.crawlGapMs, rules.hostCap, rules.hostGapMs, token, leaseMs,
    );
  }

  async release(crawlId: string, host: string, token: string): Promise<void> {
    await this.redis.multi().zrem(this.key(crawlId, 'slots'), token).zrem(this.hostKey(host, 'slots'), token).exec();
  }

  /** Drops a finished crawl's sets (the seen-set is its largest part); its stopped mark stays a day for late jobs. */
  async clear(crawlId: string): Promise<void> {
    const meta = this.key(crawlId, 'meta');
    await this.redis
      .multi()
      .unlink(this.key(crawlId, 'seen'), this.key(crawlId, 'pending'), this.key(crawlId, 'shapes'), this.key(crawlId, 'slots'), this.key(crawlId, 'next'))
      .hset(meta, 'stopped', 1)
      .pexpire(meta, 86_400_000)
      .exec();
  }

  /** Bytes Redis holds for the crawl's seen-set (MEMORY USAGE), for the frontier metrics and benchmarks. */
  async seenBytes(crawlId: string): Promise<number> {
    return Number((await this.redis.call('MEMORY', 'USAGE', this.key(crawlId, 'seen'), 'SAMPLES', '0')) ?? 0);
  }

  /** robots.txt of an origin as fetched (status, body), cached for every crawl for `ttlMs`. */
  async cachedRobots(origin: string): Promise<{ status: number | null; body: string } | null> {
    const raw = await this.redis.get(`${this.prefix}:robots:{${origin}}`);
    return raw ? (JSON.parse(raw) as { status: number | null; body: string }) : null;
  }

  async cacheRobots(origin: string, robots: { status: number | null; body: string }, ttlMs: number): Promise<void> {
    await this.redis.set(`${this.prefix}:robots:{${origin}}`, JSON.stringify(robots), 'PX', ttlMs);
  }

  /** One fetcher per origin's robots.txt at a time: true for the process that should fetch it. */
  async lockRobots(origin: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(`${this.prefix}:robots-lock:{${origin}}`, '1', 'PX', ttlMs, 'NX')) === 'OK';
  }
}
