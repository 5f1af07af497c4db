/**
 * A crawl's frontier in Redis, shared by every process that works on it. One crawl's keys share a hash tag:
 *   meta     HASH  limit, admitted, stored, seeded, stopped, touched, cap (pages in flight), gap (ms per host)
 *   seen:<n> SETs  64-bit hashes of URL keys as integers, spread over shards of ~256 (Redis keeps a set of up to
 *                  512 integers as a packed array: ~9 bytes a URL, against ~50 for one set of hash strings —
 *                  bench/crawl/seen-set.ts): no URL is admitted twice
 *   pending  HASH  hash → the URL's data, from admission until it is finished (so nothing is lost in between)
 *   hosts    ZSET  host → when this crawl may next start a page there (the crawl's own per-host gap)
 *   q:<host> LIST  the host's admitted URLs, in admission order (breadth-first)
 *   running  ZSET  hash → lease expiry: URLs a process has claimed; an expired lease goes back to its host's queue
 *   runhost  HASH  hash → host, hostrun HASH host → URLs running there, hostgap HASH host → robots.txt Crawl-delay
 *   shapes   HASH  per host and path shape that several URLs can share: URLs admitted (the trap cap)
 * A process claims the crawl's next URL (one script: the host whose turn has come, its queue's head), so URLs wait
 * in their queues rather than being taken and put back; a per-host lease across every crawl (`host:{h}:*`) keeps
 * the cap and the gap of a host shared by several crawls. Crawls with work are listed in `active` (score: when to
 * look at them next).
 */
import type { Redis } from 'ioredis';
import type { SerializedError } from '#contracts';

/** An origin's robots.txt as fetched: its status and body, or why it could not be fetched at all. */
export interface CachedRobots {
  status: number | null;
  body: string;
  error?: Pick<SerializedError, 'code' | 'message'>;
}

const ADMIT = `
local meta, pending, shapes, hosts, active = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local qprefix, seenprefix = ARGV[1], ARGV[2]
local limit = tonumber(ARGV[3])
local cap = tonumber(ARGV[4])
local crawl, now = ARGV[5], ARGV[6]
if redis.call('HGET', meta, 'stopped') == '1' then return {} end
local admitted = tonumber(redis.call('HGET', meta, 'admitted') or '0')
local before = admitted
local out = {}
for i = 7, #ARGV, 6 do
  local h, id, shard, host, shape, entry = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4], ARGV[i + 5]
  local seen = seenprefix .. shard
  if redis.call('SISMEMBER', seen, id) == 1 then
    out[#out + 1] = 0
  elseif admitted >= limit then
    out[#out + 1] = 2
  elseif cap > 0 and shape ~= '' and tonumber(redis.call('HGET', shapes, shape) or '0') >= cap then
    redis.call('SADD', seen, id)
    out[#out + 1] = 3
  else
    redis.call('SADD', seen, id)
    redis.call('HSET', pending, h, entry)
    if shape ~= '' then redis.call('HINCRBY', shapes, shape, 1) end
    redis.call('RPUSH', qprefix .. host, h)
    redis.call('ZADD', hosts, 'NX', 0, host)
    admitted = admitted + 1
    out[#out + 1] = 1
  end
end
redis.call('HSET', meta, 'admitted', admitted)
-- URLs to start: the crawl is looked at now.
if admitted > before then redis.call('ZADD', active, now, crawl) end
return out`;

/**
 * Returns up to ARGV[4] URLs to start now, as {hash, entry, host, hash, entry, host, …}; when there is none, {'wait', ms}
 * (nothing startable yet), {'idle'} (no URL queued: the crawl waits for running pages to discover more, or is done),
 * or {'stopped'}. Each URL taken counts against the crawl's cap and its host's before the next is looked for.
 */
const CLAIM = `
local meta, hosts, running, runhost, hostrun, hostgap, pending = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7]
local qprefix = ARGV[1]
local lease = tonumber(ARGV[2])
local hostCap = tonumber(ARGV[3])
local want = tonumber(ARGV[4])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
-- Leases of a process that died: their URLs go back to the front of their host's queue.
for _, h in ipairs(redis.call('ZRANGEBYSCORE', running, '-inf', now, 'LIMIT', 0, 100)) do
  local host = redis.call('HGET', runhost, h)
  redis.call('ZREM', running, h)
  redis.call('HDEL', runhost, h)
  if host then
    redis.call('HINCRBY', hostrun, host, -1)
    if redis.call('HEXISTS', pending, h) == 1 then
      redis.call('LPUSH', qprefix .. host, h)
      redis.call('ZADD', hosts, 'LT', now, host)
    end
  end
end
if redis.call('HGET', meta, 'stopped') == '1' then return {'stopped'} end
local cap = tonumber(redis.call('HGET', meta, 'cap') or '1')
local gap = tonumber(redis.call('HGET', meta, 'gap') or '0')
local out = {}
local function none(status, ms)
  if #out > 0 then return out end
  if ms then return {status, ms} end
  return {status}
end
for _ = 1, 20 + 2 * want do
  if #out >= 3 * want then return out end
  if redis.call('ZCARD', running) >= cap then return none('wait', 50) end
  local first = redis.call('ZRANGE', hosts, 0, 0, 'WITHSCORES')
  if #first == 0 then return none('idle') end
  local host, at = first[1], tonumber(first[2])
  if at > now then return none('wait', at - now) end
  if tonumber(redis.call('HGET', hostrun, host) or '0') >= hostCap then
    redis.call('ZADD', hosts, now + 50, host)
  else
    local h = redis.call('LPOP', qprefix .. host)
    if not h then
      redis.call('ZREM', hosts, host)
    else
      local entry = redis.call('HGET', pending, h)
      if entry then
        redis.call('ZADD', running, now + lease, h)
        redis.call('HSET', runhost, h, host)
        redis.call('HINCRBY', hostrun, host, 1)
        -- The host keeps its turn time even when its queue is empty: URLs admitted meanwhile wait for it.
        local wait = math.max(gap, tonumber(redis.call('HGET', hostgap, host) or '0'))
        redis.call('ZADD', hosts, now + wait, host)
        out[#out + 1] = h
        out[#out + 1] = entry
        out[#out + 1] = host
      end
    end
  end
end
return none('wait', 10)`;

/** Gives a claimed URL back to the front of its host's queue, not to be started before `ms` from now. */
const UNCLAIM = `
local hosts, running, runhost, hostrun = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local h, qprefix, ms = ARGV[1], ARGV[2], tonumber(ARGV[3])
local host = redis.call('HGET', runhost, h)
if not host then return 0 end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREM', running, h)
redis.call('HDEL', runhost, h)
redis.call('HINCRBY', hostrun, host, -1)
redis.call('LPUSH', qprefix .. host, h)
redis.call('ZADD', hosts, 'GT', now + ms, host)
return 1`;

/**
 * A URL is finished: 1 when the crawl is done (seeded and nothing pending, or stopped and nothing running). A crawl
 * that was at its cap has a slot free again: it is looked at now, not when the wait its last claim was given ends.
 */
const FINISH = `
local meta, pending, running, runhost, hostrun, active = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local h, crawl = ARGV[1], ARGV[3]
local full = redis.call('ZCARD', running) >= tonumber(redis.call('HGET', meta, 'cap') or '1')
local host = redis.call('HGET', runhost, h)
if host then
  redis.call('HINCRBY', hostrun, host, -1)
  redis.call('HDEL', runhost, h)
end
redis.call('ZREM', running, h)
redis.call('HDEL', pending, h)
redis.call('HSET', meta, 'touched', ARGV[2])
if redis.call('HGET', meta, 'stopped') == '1' then
  if redis.call('ZCARD', running) == 0 then return 1 end
  return 0
end
if redis.call('HLEN', pending) == 0 and redis.call('HGET', meta, 'seeded') == '1' then return 1 end
if full then redis.call('ZADD', active, 'XX', 'LT', ARGV[2], crawl) end
return 0`;

const CLAIM_PAGE = `
local stored = tonumber(redis.call('HGET', KEYS[1], 'stored') or '0')
if stored >= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'stored', stored + 1)
if stored + 1 >= tonumber(ARGV[1]) then return 2 end
return 1`;

/**
 * One page's start on a host, across every crawl: a cap on pages in flight and a gap between starts (leases). A
 * token (one URL of one crawl) that holds a slot already — its visit's process died — takes it over, after the gap.
 */
const HOST_ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local token, lease, cap, gap = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('ZSCORE', KEYS[1], token) and redis.call('ZCARD', KEYS[1]) >= cap then return 100 end
local nextAt = tonumber(redis.call('GET', KEYS[2]) or '0')
if nextAt > now then return nextAt - now end
redis.call('ZADD', KEYS[1], now + lease, token)
redis.call('PEXPIRE', KEYS[1], lease * 2)
if gap > 0 then redis.call('SET', KEYS[2], now + gap, 'PX', gap + 1000) end
return 0`;

type FrontierRedis = Redis & {
  trawlFrontierAdmit(...args: Array<string | number>): Promise<number[]>;
  trawlFrontierClaim(...args: Array<string | number>): Promise<string[]>;
  trawlFrontierUnclaim(...args: Array<string | number>): Promise<number>;
  trawlFrontierFinish(...args: Array<string | number>): Promise<number>;
  trawlFrontierClaimPage(meta: string, limit: number): Promise<number>;
  trawlHostAcquire(slots: string, next: string, token: string, lease: number, cap: number, gap: number): Promise<number>;
};

export type Admission = 'admitted' | 'seen' | 'over-limit' | 'trap';
const ADMISSION: Record<number, Admission> = { 0: 'seen', 1: 'admitted', 2: 'over-limit', 3: 'trap' };

export type ClaimedUrl = { hash: string; entry: string; host: string };
export type Claim = { urls: ClaimedUrl[] } | { wait: number } | { idle: true } | { stopped: true };

/** Seen-set shards for a crawl of `limit` pages: ~256 hashes each (≤ 512 keeps a set packed), a power of 2, ≤ 4,096. */
export function seenShards(limit: number): number {
  const wanted = Math.ceil((Math.min(limit, 10_000_000) * 3 + 100) / 256);
  return Math.min(4096, 2 ** Math.ceil(Math.log2(Math.max(1, wanted))));
}

/** A URL hash (8 bytes, base64url) as the signed 64-bit integer a packed set stores, and its shard. */
function seenMember(hash: string, shards: number): { id: string; shard: number } {
  const bytes = Buffer.from(hash, 'base64url');
  return { id: bytes.readBigInt64BE(0).toString(), shard: bytes.readUInt16BE(0) % shards };
}

export class FrontierStore {
  private readonly redis: FrontierRedis;
  private readonly shards = new Map<string, number>();

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    redis.defineCommand('trawlFrontierAdmit', { numberOfKeys: 5, lua: ADMIT });
    redis.defineCommand('trawlFrontierClaim', { numberOfKeys: 7, lua: CLAIM });
    redis.defineCommand('trawlFrontierUnclaim', { numberOfKeys: 4, lua: UNCLAIM });
    redis.defineCommand('trawlFrontierFinish', { numberOfKeys: 6, lua: FINISH });
    redis.defineCommand('trawlFrontierClaimPage', { numberOfKeys: 1, lua: CLAIM_PAGE });
    redis.defineCommand('trawlHostAcquire', { numberOfKeys: 2, lua: HOST_ACQUIRE });
    this.redis = redis as FrontierRedis;
  }

  private key(crawlId: string, name: string): string {
    return `${this.prefix}:crawl:{${crawlId}}:${name}`;
  }

  private hostKey(host: string, name: string): string {
    return `${this.prefix}:host:{${host}}:${name}`;
  }

  private get activeKey(): string {
    return `${this.prefix}:crawls:active`;
  }

  /**
   * A new crawl: its page limit, how many of its pages may run at once, its per-host gap; listed as active. The
   * seen-set gets a shard per ~256 URLs the crawl may admit (3 × its limit), so each shard stays a packed set.
   */
  async init(crawlId: string, limit: number, cap: number, gapMs: number): Promise<void> {
    const shards = seenShards(limit);
    this.shards.set(crawlId, shards);
    await this.redis
      .multi()
      .hset(this.key(crawlId, 'meta'), 'limit', limit, 'admitted', 0, 'cap', cap, 'gap', gapMs, 'shards', shards, 'touched', Date.now())
      .zadd(this.activeKey, 0, crawlId)
      .exec();
  }

  /** The crawl's seen-set shard count (fixed at init), cached: it never changes. */
  private async shardsOf(crawlId: string): Promise<number> {
    let shards = this.shards.get(crawlId);
    if (shards === undefined) {
      shards = Number((await this.redis.hget(this.key(crawlId, 'meta'), 'shards')) ?? 1);
      this.shards.set(crawlId, shards);
      if (this.shards.size > 10_000) this.shards.delete(this.shards.keys().next().value!);
    }
    return shards;
  }

  /**
   * Admits candidates in order (each its URL-key hash, host, path shape for the trap cap — '' for a URL no other
   * shares it with, not counted — and the data its visit needs) into its host's queue; one outcome per candidate. A
   * crawl that admitted any is looked at now (`wake`, in the same script: no round trip of its own).
   */
  async admit(crawlId: string, limit: number, shapeCap: number, candidates: Array<{ hash: string; host: string; shape: string; entry: string }>): Promise<Admission[]> {
    if (candidates.length === 0) return [];
    const shards = await this.shardsOf(crawlId);
    const out = await this.redis.trawlFrontierAdmit(
      this.key(crawlId, 'meta'), this.key(crawlId, 'pending'), this.key(crawlId, 'shapes'), this.key(crawlId, 'hosts'), this.activeKey,
      this.key(crawlId, 'q:'), this.key(crawlId, 'seen:'), limit, shapeCap, crawlId, Date.now(),
      ...candidates.flatMap((c) => {
        const { id, shard } = seenMember(c.hash, shards);
        return [c.hash, id, shard, c.host, c.shape ? `${c.host}${c.shape}` : '', c.entry];
      }),
    );
    // A stopped crawl admits nothing (the script returns no outcomes).
    return candidates.map((_, i) => ADMISSION[out[i] ?? 2]);
  }

  /**
   * The crawl's next URLs to start now (at most `want`), each held under a lease of `leaseMs` (then it goes back to
   * its queue); or why there is none.
   */
  async claim(crawlId: string, leaseMs: number, hostCap: number, want = 1): Promise<Claim> {
    const out = await this.redis.trawlFrontierClaim(
      this.key(crawlId, 'meta'), this.key(crawlId, 'hosts'), this.key(crawlId, 'running'), this.key(crawlId, 'runhost'),
      this.key(crawlId, 'hostrun'), this.key(crawlId, 'hostgap'), this.key(crawlId, 'pending'),
      this.key(crawlId, 'q:'), leaseMs, hostCap, Math.max(1, want),
    );
    if (out[0] === 'wait') return { wait: Number(out[1]) };
    if (out[0] === 'idle') return { idle: true };
    if (out[0] === 'stopped') return { stopped: true };
    const urls: ClaimedUrl[] = [];
    for (let i = 0; i + 2 < out.length; i += 3) urls.push({ hash: out[i]!, entry: out[i + 1]!, host: out[i + 2]! });
    return { urls };
  }

  /** Puts a claimed URL back at its host's queue head, not to start before `ms` from now. */
  async unclaim(crawlId: string, hash: string, ms: number): Promise<void> {
    await this.redis.trawlFrontierUnclaim(
      this.key(crawlId, 'hosts'), this.key(crawlId, 'running'), this.key(crawlId, 'runhost'), this.key(crawlId, 'hostrun'),
      hash, this.key(crawlId, 'q:'), Math.max(1, Math.round(ms)),
    );
  }

  /** URLs the crawl's frontier has admitted so far (0 once it is cleared). */
  async admitted(crawlId: string): Promise<number> {
    return Number((await this.redis.hget(this.key(crawlId, 'meta'), 'admitted')) ?? 0);
  }

  /** A URL is finished (stored, failed or skipped): true when that finished the crawl. */
  async finish(crawlId: string, hash: string): Promise<boolean> {
    return (
      (await this.redis.trawlFrontierFinish(
        this.key(crawlId, 'meta'), this.key(crawlId, 'pending'), this.key(crawlId, 'running'), this.key(crawlId, 'runhost'), this.key(crawlId, 'hostrun'),
        this.activeKey, hash, Date.now(), crawlId,
      )) === 1
    );
  }

  /** robots.txt's Crawl-delay of a host, for this crawl's claims (the global host lease holds it for every crawl). */
  async setHostGap(crawlId: string, host: string, ms: number): Promise<void> {
    await this.redis.hset(this.key(crawlId, 'hostgap'), host, ms);
  }

  /** A page's start on `host` for every crawl: 0 when it may start now, else the ms to wait. */
  async acquireHost(host: string, token: string, leaseMs: number, cap: number, gapMs: number): Promise<number> {
    return this.redis.trawlHostAcquire(this.hostKey(host, 'slots'), this.hostKey(host, 'next'), token, leaseMs, cap, gapMs);
  }

  async releaseHost(host: string, token: string): Promise<void> {
    await this.redis.zrem(this.hostKey(host, 'slots'), token);
  }

  /** Crawls to look at now (their next time has come), at most `count`. */
  async dueCrawls(count: number): Promise<string[]> {
    return this.redis.zrangebyscore(this.activeKey, '-inf', Date.now(), 'LIMIT', 0, count);
  }

  /** When to look at a crawl next (a claim said wait, or it is idle until running pages discover more). */
  async snooze(crawlId: string, ms: number): Promise<void> {
    await this.redis.zadd(this.activeKey, 'XX', Date.now() + ms, crawlId);
  }

  /** Looks at the crawl at once (its pages discovered URLs, or it was just seeded). */
  async wake(crawlId: string): Promise<void> {
    await this.redis.zadd(this.activeKey, Date.now(), crawlId);
  }

  async isActive(crawlId: string): Promise<boolean> {
    return (await this.redis.zscore(this.activeKey, crawlId)) !== null;
  }

  /** Seeding is done: from now on the crawl finishes when its pending map drains. True when it is already empty. */
  async seeded(crawlId: string): Promise<boolean> {
    const [, [, left]] = (await this.redis
      .multi()
      .hset(this.key(crawlId, 'meta'), 'seeded', 1)
      .hlen(this.key(crawlId, 'pending'))
      .exec()) as [[null, number], [null, number]];
    return left === 0;
  }

  /**
   * One of the crawl's `limit` stored pages, claimed before a page is stored: `full` when none is left (the page is
   * not stored), `last` when this claim took the last one (the crawl stops taking URLs).
   */
  async claimPage(crawlId: string, limit: number): Promise<'ok' | 'last' | 'full'> {
    const out = await this.redis.trawlFrontierClaimPage(this.key(crawlId, 'meta'), limit);
    return out === 0 ? 'full' : out === 2 ? 'last' : 'ok';
  }

  /** Gives a page claim back (the page turned out a duplicate, or this reservation had stored it already). */
  async unclaimPage(crawlId: string): Promise<void> {
    await this.redis.hincrby(this.key(crawlId, 'meta'), 'stored', -1);
  }

  /** Marks a URL key as seen (a redirect target, a canonical): true when it was not seen before. */
  async markSeen(crawlId: string, hash: string): Promise<boolean> {
    const { id, shard } = seenMember(hash, await this.shardsOf(crawlId));
    return (await this.redis.sadd(this.key(crawlId, `seen:${shard}`), id)) === 1;
  }

  /** Whether the crawl has URLs to finish, runs some, is seeded or stopped, when a URL last finished (null: keys gone). */
  async progress(crawlId: string): Promise<{ pending: number; running: number; seeded: boolean; stopped: boolean; touched: number } | null> {
    const [[, meta], [, pending], [, running]] = (await this.redis
      .multi()
      .hgetall(this.key(crawlId, 'meta'))
      .hlen(this.key(crawlId, 'pending'))
      .zcard(this.key(crawlId, 'running'))
      .exec()) as [[null, Record<string, string>], [null, number], [null, number]];
    if (!meta || Object.keys(meta).length === 0) return null;
    return { pending, running, seeded: meta.seeded === '1', stopped: meta.stopped === '1', touched: Number(meta.touched ?? 0) };
  }

  async touch(crawlId: string): Promise<void> {
    await this.redis.hset(this.key(crawlId, 'meta'), 'touched', Date.now());
  }

  /** No URL of the crawl starts from now on (cancelled, out of credits, its limit reached). */
  async stop(crawlId: string): Promise<void> {
    await this.redis.hset(this.key(crawlId, 'meta'), 'stopped', 1);
  }

  /** Drops a finished crawl's state (its seen-set is the largest part); its stopped mark stays a day for late work. */
  async clear(crawlId: string): Promise<void> {
    const hosts = await this.redis.zrange(this.key(crawlId, 'hosts'), '0', '-1');
    const shards = await this.shardsOf(crawlId);
    const meta = this.key(crawlId, 'meta');
    for (let first = 0; first < shards; first += 1024) {
      await this.redis.unlink(...Array.from({ length: Math.min(1024, shards - first) }, (_, i) => this.key(crawlId, `seen:${first + i}`)));
    }
    await this.redis
      .multi()
      .unlink(
        ...['pending', 'shapes', 'hosts', 'running', 'runhost', 'hostrun', 'hostgap'].map((name) => this.key(crawlId, name)),
        ...hosts.map((host) => this.key(crawlId, `q:${host}`)),
      )
      .hset(meta, 'stopped', '1')
      .pexpire(meta, 86_400_000)
      .zrem(this.activeKey, crawlId)
      .exec();
  }

  /** Bytes Redis holds for the crawl's seen-set (MEMORY USAGE of every shard), for the frontier benchmarks. */
  async seenBytes(crawlId: string): Promise<number> {
    let bytes = 0;
    for (let shard = 0; shard < (await this.shardsOf(crawlId)); shard++) {
      bytes += Number((await this.redis.call('MEMORY', 'USAGE', this.key(crawlId, `seen:${shard}`), 'SAMPLES', '0')) ?? 0);
    }
    return bytes;
  }

  /** robots.txt of an origin as fetched (status, body), cached for every crawl for `ttlMs`. */
  async cachedRobots(origin: string): Promise<CachedRobots | null> {
    const raw = await this.redis.get(`${this.prefix}:robots:{${origin}}`);
    return raw ? (JSON.parse(raw) as CachedRobots) : null;
  }

  async cacheRobots(origin: string, robots: CachedRobots, ttlMs: number): Promise<void> {
    await this.redis.set(`${this.prefix}:robots:{${origin}}`, JSON.stringify(robots), 'PX', ttlMs);
  }

  /** One fetcher per origin's robots.txt at a time: true for the process that should fetch it. */
  async lockRobots(origin: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(`${this.prefix}:robots-lock:{${origin}}`, '1', 'PX', ttlMs, 'NX')) === 'OK';
  }
}
