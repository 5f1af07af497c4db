/**
 * A crawl's frontier in Redis, shared by every process that works on it, in memory fixed by the crawl's page limit
 * rather than by how far it has got. One crawl's keys share a hash tag:
 *   meta     HASH   limit, admitted, stored, seeded, stopped (and stopStatus, stopError: how a stop ends the crawl),
 *                   touched, cap (pages in flight), gap (ms per host), the
 *                   sizes of `seen` and `shapes`, spilled (URLs admitted to Postgres and not yet back), cursor
 *   seen     STRING a Bloom filter of URL-key hashes, sized at start for every URL the crawl may admit (3 × its limit
 *                   + 100) at a false-positive rate of 10⁻⁶ when full: ~4.3 bytes a URL of that capacity; no URL is
 *                   admitted twice, and a new URL is taken for seen (never crawled) with probability under 10⁻⁶
 *   shapes   STRING a count-min sketch (4 rows of counters) of URLs admitted per host and path shape (the trap cap),
 *                   sized from the limit and the cap: it can only overcount, so a pattern is never let past its cap
 *   pending  HASH   hash → the URL's data, from admission until it is finished (so nothing is lost in between); at most
 *                   `pendingMax` URLs wait here, the rest in Postgres (`spill`, then crawl_frontier: frontier-spill.ts)
 *   spill    LIST   URLs admitted past that bound, on their way to Postgres
 *   hosts    ZSET   host → when this crawl may next start a page there (the crawl's own per-host gap)
 *   q:<host> LIST   the host's admitted URLs, in admission order (breadth-first)
 *   running  ZSET   hash → lease expiry: URLs a process has claimed; an expired lease goes back to its host's queue
 *   runhost  HASH   hash → host, hostrun HASH host → URLs running there, hostgap HASH host → robots.txt Crawl-delay
 * A process claims the crawl's next URL (one script: the host whose turn has come, its queue's head), so URLs wait
 * in their queues rather than being taken and put back; a per-host lease across every crawl (`host:{h}:*`) keeps
 * the cap and the gap of a host shared by several crawls. Crawls with work are listed in `active` (score: when to
 * look at them next).
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { SerializedError } from '#contracts';

/** An origin's robots.txt as fetched: its status and body, or why it could not be fetched at all. */
export interface CachedRobots {
  status: number | null;
  body: string;
  error?: Pick<SerializedError, 'code' | 'message'>;
}

/**
 * Bloom filter probes of a URL hash (h1, h2: its two 32-bit halves), as BITFIELD offsets of `seen`; `mark` sets them
 * all in one call and says whether any was unset (the URL is new).
 */
const SEEN_PROBES = `
local function probes(h1, h2, m, k)
  local out = {}
  for j = 0, k - 1 do out[#out + 1] = (h1 + j * h2) % m end
  return out
end
local function mark(seen, offsets)
  local set = {}
  for _, o in ipairs(offsets) do set[#set + 1] = 'SET'; set[#set + 1] = 'u1'; set[#set + 1] = o; set[#set + 1] = 1 end
  for _, bit in ipairs(redis.call('BITFIELD', seen, unpack(set))) do
    if bit == 0 then return true end
  end
  return false
end`;

/**
 * Admits candidates (ARGV from 7, 7 each: hash, its halves h1 h2, host, the shape's halves s1 s2 or '' for none, the
 * entry); one outcome each (0 seen, 1 admitted, 2 over the limit, 3 refused by the trap cap), then how many of the
 * admitted went to the spill list. A URL goes to `spill` rather than its host's queue while `pending` is at its bound
 * or earlier URLs are spilled (so the crawl stays breadth-first).
 */
const ADMIT = `${SEEN_PROBES}
local meta, pending, shapes, hosts, active, seen, spill = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7]
local qprefix = ARGV[1]
local limit = tonumber(ARGV[2])
local cap = tonumber(ARGV[3])
local crawl, now = ARGV[4], ARGV[5]
local bound = tonumber(ARGV[6])
local cfg = redis.call('HMGET', meta, 'stopped', 'admitted', 'm', 'k', 'w', 'cbits', 'spilled')
if cfg[1] == '1' then return {} end
-- A crawl started by an older version has no sizes yet: the caller gives it them (sized) and asks again.
if not cfg[3] then return {-1} end
local admitted = tonumber(cfg[2] or '0')
local m, k, w, ctype = tonumber(cfg[3]), tonumber(cfg[4]), tonumber(cfg[5]), 'u' .. cfg[6]
local spilled = tonumber(cfg[7] or '0')
local before, spilledBefore = admitted, spilled
local out = {}
for i = 7, #ARGV, 7 do
  local h, host, s1, entry = ARGV[i], ARGV[i + 3], ARGV[i + 4], ARGV[i + 6]
  -- Marked seen whatever comes next: past the limit nothing is admitted again, and a trapped URL stays trapped.
  if not mark(seen, probes(tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2]), m, k)) then
    out[#out + 1] = 0
  elseif admitted >= limit then
    out[#out + 1] = 2
  else
    local cells, counts, least
    if cap > 0 and s1 ~= '' then
      local a, b = tonumber(s1), tonumber(ARGV[i + 5])
      cells, counts = {}, {}
      local get = {}
      for r = 0, 3 do
        cells[r + 1] = '#' .. (r * w + (a + r * b + r * r) % w)
        get[#get + 1] = 'GET'; get[#get + 1] = ctype; get[#get + 1] = cells[r + 1]
      end
      counts = redis.call('BITFIELD', shapes, unpack(get))
      least = math.min(counts[1], counts[2], counts[3], counts[4])
    end
    if cells and least >= cap then
      out[#out + 1] = 3
    else
      if cells then
        -- Conservative update: only the counters at the minimum grow (each still bounds the pattern's count).
        local inc = {'OVERFLOW', 'SAT'}
        for r = 1, 4 do
          if counts[r] == least then inc[#inc + 1] = 'INCRBY'; inc[#inc + 1] = ctype; inc[#inc + 1] = cells[r]; inc[#inc + 1] = 1 end
        end
        redis.call('BITFIELD', shapes, unpack(inc))
      end
      if spilled > 0 or redis.call('HLEN', pending) >= bound then
        redis.call('RPUSH', spill, h .. '\\t' .. host .. '\\t' .. entry)
        spilled = spilled + 1
      else
        redis.call('HSET', pending, h, entry)
        redis.call('RPUSH', qprefix .. host, h)
        redis.call('ZADD', hosts, 'NX', 0, host)
      end
      admitted = admitted + 1
      out[#out + 1] = 1
    end
  end
end
redis.call('HSET', meta, 'admitted', admitted, 'spilled', spilled)
-- URLs to start: the crawl is looked at now.
if admitted > before then redis.call('ZADD', active, now, crawl) end
out[#out + 1] = spilled - spilledBefore
return out`;

/** Marks a URL hash seen (ARGV: its halves): 1 when it was not seen before. */
const MARK_SEEN = `${SEEN_PROBES}
local cfg = redis.call('HMGET', KEYS[1], 'm', 'k')
if not cfg[1] then return -1 end
if mark(KEYS[2], probes(tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(cfg[1]), tonumber(cfg[2]))) then return 1 end
return 0`;

/**
 * URLs back from Postgres (ARGV from 4, 4 each: seq, hash, host, entry), in admission order, into their hosts'
 * queues; those at or before the crawl's cursor are back already (another process's refill took them). How many
 * came back.
 */
const REFILL = `
local meta, pending, hosts, active = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local qprefix, crawl, now = ARGV[1], ARGV[2], ARGV[3]
local cfg = redis.call('HMGET', meta, 'stopped', 'cursor')
if cfg[1] == '1' then return 0 end
local cursor, mark = tonumber(cfg[2] or '0'), nil
local moved = 0
for i = 4, #ARGV, 4 do
  if tonumber(ARGV[i]) > cursor then
    local h, host = ARGV[i + 1], ARGV[i + 2]
    redis.call('HSET', pending, h, ARGV[i + 3])
    redis.call('RPUSH', qprefix .. host, h)
    redis.call('ZADD', hosts, 'NX', 0, host)
    cursor, mark = tonumber(ARGV[i]), ARGV[i]
    moved = moved + 1
  end
end
if moved > 0 then
  redis.call('HSET', meta, 'cursor', mark)
  redis.call('HINCRBY', meta, 'spilled', -moved)
  redis.call('ZADD', active, now, crawl)
end
return moved`;

/** Drops the spill list's first ARGV[2] entries once they are in Postgres, if its head is still ARGV[1]. */
const SPILL_TRIM = `
if redis.call('LINDEX', KEYS[1], 0) ~= ARGV[1] then return 0 end
redis.call('LTRIM', KEYS[1], tonumber(ARGV[2]), -1)
return 1`;

/**
 * Returns up to ARGV[4] URLs to start now, as {hash, entry, host, hash, entry, host, …}; when there is none, {'wait', ms}
 * (nothing startable yet), {'idle'} (no URL queued: the crawl waits for running pages to discover more, or is done),
 * or {'stopped'}. Each URL taken counts against the crawl's cap and its host's before the next is looked for. Led by
 * 'refill' when the crawl's URLs in Postgres should come back.
 */
const CLAIM = `
local meta, hosts, running, runhost, hostrun, hostgap, pending = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7]
local function claim()
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
  return none('wait', 10)
end
local out = claim()
-- Fewer than ARGV[5] URLs pending here and some in Postgres: the caller brings more back (first, so BFS holds).
if tonumber(redis.call('HGET', meta, 'spilled') or '0') > 0 and redis.call('HLEN', pending) < tonumber(ARGV[5]) then
  table.insert(out, 1, 'refill')
end
return out`;

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
if redis.call('HLEN', pending) == 0 and redis.call('HGET', meta, 'seeded') == '1' and tonumber(redis.call('HGET', meta, 'spilled') or '0') == 0 then return 1 end
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
  trawlFrontierMarkSeen(meta: string, seen: string, h1: number, h2: number): Promise<number>;
  trawlFrontierRefill(...args: Array<string | number>): Promise<number>;
  trawlFrontierSpillTrim(spill: string, head: string, count: number): Promise<number>;
  trawlHostAcquire(slots: string, next: string, token: string, lease: number, cap: number, gap: number): Promise<number>;
};

export type Admission = 'admitted' | 'seen' | 'over-limit' | 'trap';
const ADMISSION: Record<number, Admission> = { 0: 'seen', 1: 'admitted', 2: 'over-limit', 3: 'trap' };

export type ClaimedUrl = { hash: string; entry: string; host: string };
/** A claim's URLs or why there are none; `refill` when the crawl's URLs in Postgres should come back to Redis. */
/** How a stopped crawl ends. */
export interface StopReason {
  status: 'cancelled' | 'failed' | 'credits_exhausted';
  error: string | null;
}

const STOP_STATUSES: ReadonlySet<string> = new Set<StopReason['status']>(['cancelled', 'failed', 'credits_exhausted']);

function stopReason(status: string | null | undefined, error: string | null | undefined): StopReason | null {
  if (!status || !STOP_STATUSES.has(status)) return null;
  return { status: status as StopReason['status'], error: error || null };
}

export type Claim = ({ urls: ClaimedUrl[] } | { wait: number } | { idle: true } | { stopped: true }) & { refill?: true };

/** A URL admitted past the crawl's bound in Redis, on its way to Postgres (`raw`: as the spill list holds it). */
export type SpillEntry = { hash: string; host: string; entry: string; raw: string };

export interface FrontierSettings {
  /** CRAWL_MAX_URLS_PER_PATTERN: the trap cap the shape sketch is sized for. */
  shapeCap: number;
  /** CRAWL_FRONTIER_REDIS_URLS: a crawl's URLs pending in Redis at most; the rest wait in Postgres. */
  pendingMax: number;
}

/**
 * Bloom filter probes for a false-positive rate of 10⁻⁶ when full: k = 10 at 34.6 bits an element (k = 20 would need
 * 28.8 bits, but twice the probes for every link).
 */
const SEEN_PROBE_COUNT = 10;
const SEEN_BITS_PER_URL = 34.6;
/**
 * The sizes of a crawl's seen-set and shape sketch, from the URLs it may admit (3 × its limit + 100, as the
 * coordinator admits): bits of the Bloom filter; counters a row of the sketch's four (a power of 2, 4,096 to 2²⁰, so
 * that a row's expected overcount stays under a 16th of the cap) and their width (16 bits, 32 for a cap past 65,534).
 */
export function frontierSizes(limit: number, shapeCap: number): { m: number; k: number; w: number; cbits: number } {
  const urls = Math.min(limit, 10_000_000) * 3 + 100;
  const m = Math.ceil(urls * SEEN_BITS_PER_URL);
  const w = 2 ** Math.min(20, Math.max(12, Math.ceil(Math.log2((16 * urls) / Math.max(1, shapeCap)))));
  return { m, k: SEEN_PROBE_COUNT, w, cbits: shapeCap > 65_534 ? 32 : 16 };
}

/** A 64-bit hash (8 bytes, base64url) as its two 32-bit halves, for the Bloom filter's double hashing. */
function halves(hash: string): [number, number] {
  const bytes = Buffer.from(hash, 'base64url');
  return [bytes.readUInt32BE(0), bytes.readUInt32BE(4)];
}

/** A host and path shape as the halves of its 64-bit hash, for the sketch's rows. */
function shapeHalves(shape: string): [number, number] {
  return halves(createHash('sha256').update(shape).digest().subarray(0, 8).toString('base64url'));
}

export class FrontierStore {
  private readonly redis: FrontierRedis;

  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly settings: FrontierSettings = { shapeCap: 1000, pendingMax: 5_000 },
  ) {
    redis.defineCommand('trawlFrontierAdmit', { numberOfKeys: 7, lua: ADMIT });
    redis.defineCommand('trawlFrontierClaim', { numberOfKeys: 7, lua: CLAIM });
    redis.defineCommand('trawlFrontierUnclaim', { numberOfKeys: 4, lua: UNCLAIM });
    redis.defineCommand('trawlFrontierFinish', { numberOfKeys: 6, lua: FINISH });
    redis.defineCommand('trawlFrontierClaimPage', { numberOfKeys: 1, lua: CLAIM_PAGE });
    redis.defineCommand('trawlFrontierMarkSeen', { numberOfKeys: 2, lua: MARK_SEEN });
    redis.defineCommand('trawlFrontierRefill', { numberOfKeys: 4, lua: REFILL });
    redis.defineCommand('trawlFrontierSpillTrim', { numberOfKeys: 1, lua: SPILL_TRIM });
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

  /** URLs pending in Redis below which the crawl's URLs in Postgres come back (half the bound). */
  private get refillBelow(): number {
    return Math.max(1, Math.floor(this.settings.pendingMax / 2));
  }

  /**
   * A new crawl: its page limit, how many of its pages may run at once, its per-host gap, the sizes of its seen-set and
   * shape sketch (frontierSizes); listed as active. The seen-set is allocated whole (~13 bytes a page of the limit:
   * 130 KB for 10,000 pages); the sketch when a URL with a shape first comes.
   */
  async init(crawlId: string, limit: number, cap: number, gapMs: number): Promise<void> {
    const { m, k, w, cbits } = frontierSizes(limit, this.settings.shapeCap);
    await this.redis
      .multi()
      .hset(this.key(crawlId, 'meta'), 'limit', limit, 'admitted', 0, 'cap', cap, 'gap', gapMs, 'm', m, 'k', k, 'w', w, 'cbits', cbits, 'touched', Date.now())
      // The seen-set's memory, all of it now: a crawl's Redis does not grow as it goes.
      .setbit(this.key(crawlId, 'seen'), m - 1, 0)
      .zadd(this.activeKey, 0, crawlId)
      .exec();
  }

  /**
   * Admits candidates in order (each its URL-key hash, host, path shape for the trap cap — '' for a URL no other
   * shares it with, not counted — and the data its visit needs) into its host's queue, or past the crawl's bound in
   * Redis into the spill list; one outcome per candidate, and how many were spilled. A crawl that admitted any is
   * looked at now (`wake`, in the same script: no round trip of its own).
   */
  async admit(
    crawlId: string,
    limit: number,
    shapeCap: number,
    candidates: Array<{ hash: string; host: string; shape: string; entry: string }>,
  ): Promise<{ outcomes: Admission[]; spilled: number }> {
    if (candidates.length === 0) return { outcomes: [], spilled: 0 };
    const admit = () => this.redis.trawlFrontierAdmit(
      this.key(crawlId, 'meta'), this.key(crawlId, 'pending'), this.key(crawlId, 'shapes'), this.key(crawlId, 'hosts'), this.activeKey,
      this.key(crawlId, 'seen'), this.key(crawlId, 'spill'),
      this.key(crawlId, 'q:'), limit, shapeCap, crawlId, Date.now(), this.settings.pendingMax,
      ...candidates.flatMap((c) => {
        const [h1, h2] = halves(c.hash);
        const [s1, s2] = c.shape ? shapeHalves(`${c.host}${c.shape}`) : ['', ''];
        return [c.hash, h1, h2, c.host, s1, s2, c.entry];
      }),
    );
    let out = await admit();
    if (out[0] === -1) {
      await this.sized(crawlId);
      out = await admit();
    }
    // A stopped crawl admits nothing (the script returns no outcomes).
    return { outcomes: candidates.map((_, i) => ADMISSION[out[i] ?? 2]), spilled: out[candidates.length] ?? 0 };
  }

  /**
   * The crawl's next URLs to start now (at most `want`), each held under a lease of `leaseMs` (then it goes back to
   * its queue); or why there is none.
   */
  async claim(crawlId: string, leaseMs: number, hostCap: number, want = 1): Promise<Claim> {
    const out = await this.redis.trawlFrontierClaim(
      this.key(crawlId, 'meta'), this.key(crawlId, 'hosts'), this.key(crawlId, 'running'), this.key(crawlId, 'runhost'),
      this.key(crawlId, 'hostrun'), this.key(crawlId, 'hostgap'), this.key(crawlId, 'pending'),
      this.key(crawlId, 'q:'), leaseMs, hostCap, Math.max(1, want), this.refillBelow,
    );
    const refill = out[0] === 'refill';
    if (refill) out.shift();
    const more = refill ? { refill: true as const } : {};
    if (out[0] === 'wait') return { wait: Number(out[1]), ...more };
    if (out[0] === 'idle') return { idle: true, ...more };
    if (out[0] === 'stopped') return { stopped: true, ...more };
    const urls: ClaimedUrl[] = [];
    for (let i = 0; i + 2 < out.length; i += 3) urls.push({ hash: out[i]!, entry: out[i + 1]!, host: out[i + 2]! });
    return { urls, ...more };
  }

  /** Puts a claimed URL back at its host's queue head, not to start before `ms` from now. */
  async unclaim(crawlId: string, hash: string, ms: number): Promise<void> {
    await this.redis.trawlFrontierUnclaim(
      this.key(crawlId, 'hosts'), this.key(crawlId, 'running'), this.key(crawlId, 'runhost'), this.key(crawlId, 'hostrun'),
      hash, this.key(crawlId, 'q:'), Math.max(1, Math.round(ms)),
    );
  }

  /** The first `count` URLs of the crawl's spill list (on their way to Postgres). */
  async spillHead(crawlId: string, count: number): Promise<SpillEntry[]> {
    const raws = await this.redis.lrange(this.key(crawlId, 'spill'), 0, count - 1);
    return raws.map((raw) => {
      const [hash, host, ...entry] = raw.split('\t');
      return { hash: hash!, host: host!, entry: entry.join('\t'), raw };
    });
  }

  /** Drops the spill list's first `count` URLs, now in Postgres, unless another process did (its head moved on). */
  async trimSpill(crawlId: string, head: string, count: number): Promise<void> {
    await this.redis.trawlFrontierSpillTrim(this.key(crawlId, 'spill'), head, count);
  }

  /** Where the crawl's URLs in Postgres stand: the last `seq` back in Redis, and how many are still out of it. */
  async spillState(crawlId: string): Promise<{ cursor: string; spilled: number }> {
    const [cursor, spilled] = await this.redis.hmget(this.key(crawlId, 'meta'), 'cursor', 'spilled');
    return { cursor: cursor ?? '0', spilled: Number(spilled ?? 0) };
  }

  /** URLs back from Postgres into their hosts' queues, in admission order; how many came back (not already). */
  async refill(crawlId: string, urls: ReadonlyArray<{ seq: string; hash: string; host: string; entry: string }>): Promise<number> {
    if (urls.length === 0) return 0;
    return this.redis.trawlFrontierRefill(
      this.key(crawlId, 'meta'), this.key(crawlId, 'pending'), this.key(crawlId, 'hosts'), this.activeKey,
      this.key(crawlId, 'q:'), crawlId, Date.now(),
      ...urls.flatMap((u) => [u.seq, u.hash, u.host, u.entry]),
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

  /** Seeding is done: from now on the crawl finishes when its frontier drains. True when it is already empty. */
  async seeded(crawlId: string): Promise<boolean> {
    const [, [, left], [, spilled]] = (await this.redis
      .multi()
      .hset(this.key(crawlId, 'meta'), 'seeded', 1)
      .hlen(this.key(crawlId, 'pending'))
      .hget(this.key(crawlId, 'meta'), 'spilled')
      .exec()) as [[null, number], [null, number], [null, string | null]];
    return left === 0 && Number(spilled ?? 0) === 0;
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
    const [h1, h2] = halves(hash);
    const mark = () => this.redis.trawlFrontierMarkSeen(this.key(crawlId, 'meta'), this.key(crawlId, 'seen'), h1, h2);
    let out = await mark();
    if (out === -1) {
      await this.sized(crawlId);
      out = await mark();
    }
    return out === 1;
  }

  /**
   * Gives a crawl an older version started (its seen-set sharded sets, its trap counts a hash) the sizes of this
   * one's: its seen-set starts empty (a URL it had seen may be fetched again, and is then stored no second time: pages
   * are unique per URL key), its trap counts start again, its old seen-set goes.
   */
  private async sized(crawlId: string): Promise<void> {
    const meta = this.key(crawlId, 'meta');
    const [limit, shards] = await this.redis.hmget(meta, 'limit', 'shards');
    const { m, k, w, cbits } = frontierSizes(Number(limit ?? 10_000), this.settings.shapeCap);
    if ((await this.redis.type(this.key(crawlId, 'shapes'))) === 'hash') await this.redis.unlink(this.key(crawlId, 'shapes'));
    await this.dropOldSeen(crawlId, Number(shards ?? 0));
    await this.redis.multi().hsetnx(meta, 'm', m).hsetnx(meta, 'k', k).hsetnx(meta, 'w', w).hsetnx(meta, 'cbits', cbits).hdel(meta, 'shards').exec();
  }

  /** The sharded seen-set of a crawl an older version started. */
  private async dropOldSeen(crawlId: string, shards: number): Promise<void> {
    for (let first = 0; first < shards; first += 1024) {
      await this.redis.unlink(...Array.from({ length: Math.min(1024, shards - first) }, (_, i) => this.key(crawlId, `seen:${first + i}`)));
    }
  }

  /**
   * Whether the crawl has URLs to finish (pending in Redis or still in Postgres), runs some, is seeded or stopped,
   * when a URL last finished (null: keys gone).
   */
  async progress(crawlId: string): Promise<{ pending: number; running: number; seeded: boolean; stopped: boolean; touched: number } | null> {
    const [[, meta], [, pending], [, running]] = (await this.redis
      .multi()
      .hgetall(this.key(crawlId, 'meta'))
      .hlen(this.key(crawlId, 'pending'))
      .zcard(this.key(crawlId, 'running'))
      .exec()) as [[null, Record<string, string>], [null, number], [null, number]];
    if (!meta || Object.keys(meta).length === 0) return null;
    return { pending: pending + Number(meta.spilled ?? 0), running, seeded: meta.seeded === '1', stopped: meta.stopped === '1', touched: Number(meta.touched ?? 0) };
  }

  async touch(crawlId: string): Promise<void> {
    await this.redis.hset(this.key(crawlId, 'meta'), 'touched', Date.now());
  }

  /**
   * No URL of the crawl starts from now on. With a reason (cancelled, out of credits, failed) the crawl finishes with
   * it, whoever finishes it; without one (its page limit reached) it completes. The first reason given stays: a
   * cancel and a later credits stop end as cancelled, in every process that finishes the crawl.
   */
  async stop(crawlId: string, reason?: StopReason): Promise<StopReason | null> {
    const meta = this.key(crawlId, 'meta');
    const multi = this.redis.multi().hset(meta, 'stopped', 1);
    if (reason) multi.hsetnx(meta, 'stopStatus', reason.status).hsetnx(meta, 'stopError', reason.error ?? '');
    const out = (await multi.hmget(meta, 'stopStatus', 'stopError').exec()) ?? [];
    const [status, error] = (out[out.length - 1]?.[1] ?? []) as Array<string | null>;
    return stopReason(status, error);
  }

  /** Why the crawl was stopped, when a cancel, a failure or its credits stopped it (null: not stopped, or its limit). */
  async stopped(crawlId: string): Promise<StopReason | null> {
    const [status, error] = await this.redis.hmget(this.key(crawlId, 'meta'), 'stopStatus', 'stopError');
    return stopReason(status, error);
  }

  /** Drops a finished crawl's state; its stopped mark stays a day for late work. */
  async clear(crawlId: string): Promise<void> {
    const hosts = await this.redis.zrange(this.key(crawlId, 'hosts'), '0', '-1');
    const meta = this.key(crawlId, 'meta');
    await this.dropOldSeen(crawlId, Number((await this.redis.hget(meta, 'shards')) ?? 0));
    await this.redis
      .multi()
      .unlink(
        ...['seen', 'pending', 'spill', 'shapes', 'hosts', 'running', 'runhost', 'hostrun', 'hostgap'].map((name) => this.key(crawlId, name)),
        ...hosts.map((host) => this.key(crawlId, `q:${host}`)),
      )
      .hset(meta, 'stopped', '1')
      .pexpire(meta, 86_400_000)
      .zrem(this.activeKey, crawlId)
      .exec();
  }

  /** Bytes Redis holds for the crawl's seen-set (MEMORY USAGE), for the frontier benchmarks. */
  async seenBytes(crawlId: string): Promise<number> {
    return Number((await this.redis.call('MEMORY', 'USAGE', this.key(crawlId, 'seen'), 'SAMPLES', '0')) ?? 0);
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
