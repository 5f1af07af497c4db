/**
 * The page cache (`max_age` on `/crawl`): a page job's successful result, compressed, in the platform Redis under keys
 * of its own, kept PAGE_CACHE_MAX_AGE_MS at most (each entry's TTL) and bounded in bytes: the entries' sizes are
 * counted in one total, and a write that takes it past PAGE_CACHE_MAX_BYTES evicts the least recently used entries
 * (a read moves an entry to the recent end). Expired entries leave the index on the next writes. Everything that
 * changes the index is one Lua script, so replicas never disagree on the total.
 *
 * The shared Redis' maxmemory-policy is never relied on: the queues live there and must not be evicted. A cache
 * that fails (Redis full or down) answers a miss and stores nothing; the call goes on without it.
 *
 * An entry: 8 bytes of the time it was fetched (ms, big-endian double), then the result as Brotli-compressed JSON.
 */
import { promisify } from 'node:util';
import { brotliCompress, brotliDecompress, brotliDecompressSync, constants } from 'node:zlib';
import { Logger, type Provider } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import type { CrawlPageSuccess } from '#contracts';
import { CLOCK, isRedisDown, REDIS } from '#platform';
import type { Clock } from '#platform/clock.js';

const compress = promisify(brotliCompress);
const decompress = promisify(brotliDecompress);
/** Quality 4: most of Brotli's ratio on text at a small part of its top quality's time. */
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } };
/** Smaller entries are decompressed on the event loop (a hop to the thread pool would cost more). */
const INLINE_DECOMPRESS_BYTES = 32 * 1024;
/** Counted per entry beside its value: its key, its index records and Redis' own bookkeeping, roughly. */
export const ENTRY_OVERHEAD_BYTES = 400;
/** An entry larger than this share of the cap is not stored: one page may not flush the cache. */
const MAX_ENTRY_SHARE = 8;
/** Expired entries dropped from the index per write, at most. */
const EXPIRED_PER_WRITE = 32;

/** forget(key): the entry and its index records gone, its bytes taken off the total; returns them. */
const FORGET = `
local function forget(key)
  redis.call('DEL', key)
  local size = tonumber(redis.call('HGET', KEYS[4], key) or '0')
  redis.call('HDEL', KEYS[4], key)
  redis.call('ZREM', KEYS[2], key)
  redis.call('ZREM', KEYS[3], key)
  if size > 0 then redis.call('DECRBY', KEYS[5], size) end
  return size
end`;

/** KEYS: entry, lru, expiry, sizes, total. ARGV: value, ttl ms, now ms, cap bytes, overhead bytes. Returns entries evicted. */
const PUT = `${FORGET}
local now, ttl, cap = tonumber(ARGV[3]), tonumber(ARGV[2]), tonumber(ARGV[4])
for _, key in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now, 'LIMIT', 0, ${EXPIRED_PER_WRITE})) do forget(key) end
forget(KEYS[1])
local size = string.len(ARGV[1]) + tonumber(ARGV[5])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl)
redis.call('HSET', KEYS[4], KEYS[1], size)
redis.call('ZADD', KEYS[2], now, KEYS[1])
redis.call('ZADD', KEYS[3], now + ttl, KEYS[1])
local used = redis.call('INCRBY', KEYS[5], size)
local evicted = 0
while used > cap do
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0)[1]
  if not oldest then break end
  used = used - forget(oldest)
  evicted = evicted + 1
end
return evicted`;

/** KEYS: entry, lru. ARGV: now ms. The entry, marked recently used. */
const GET = `
local value = redis.call('GET', KEYS[1])
if value then redis.call('ZADD', KEYS[2], 'XX', ARGV[1], KEYS[1]) end
return value`;

type CacheRedis = Redis & {
  trawlPageCachePut(entry: string, lru: string, expiry: string, sizes: string, total: string, value: Buffer, ttlMs: number, nowMs: number, cap: number, overhead: number): Promise<number>;
  trawlPageCacheGetBuffer(entry: string, lru: string, nowMs: number): Promise<Buffer | null>;
};

export interface PageCacheOptions {
  /** PAGE_CACHE_MAX_BYTES: 0 is off. */
  maxBytes: number;
  /** PAGE_CACHE_MAX_AGE_MS: each entry's TTL. */
  ttlMs: number;
  /** REDIS_PREFIX. */
  prefix: string;
}

export interface CachedPage {
  result: CrawlPageSuccess;
  /** When the page was fetched (ms since the epoch). */
  cachedAt: number;
}

const logger = new Logger('PageCache');

export class PageCache {
  private readonly redis: CacheRedis;
  /** One hash tag: every key of the cache in one Redis Cluster slot, as its scripts need. */
  private readonly base: string;

  constructor(
    redis: Redis,
    private readonly options: PageCacheOptions,
    private readonly clock: Clock,
  ) {
    redis.defineCommand('trawlPageCachePut', { numberOfKeys: 5, lua: PUT });
    redis.defineCommand('trawlPageCacheGet', { numberOfKeys: 2, lua: GET });
    this.redis = redis as CacheRedis;
    this.base = `${options.prefix}:{pagecache}`;
  }

  get enabled(): boolean {
    return this.options.maxBytes > 0;
  }

  /** The stored page under `key` of `scope` (an account id, or `shared`) fetched at most `maxAgeMs` ago, else null. */
  async get(scope: string, key: string, maxAgeMs: number): Promise<CachedPage | null> {
    if (!this.enabled || isRedisDown(this.redis)) return null;
    try {
      const now = this.clock.now().getTime();
      const value = await this.redis.trawlPageCacheGetBuffer(this.entryKey(scope, key), `${this.base}:lru`, now);
      if (!value || value.length < 8) return null;
      const cachedAt = value.readDoubleBE(0);
      if (now - cachedAt > maxAgeMs) return null;
      const packed = value.subarray(8);
      const json = packed.length <= INLINE_DECOMPRESS_BYTES ? brotliDecompressSync(packed) : await decompress(packed);
      return { result: JSON.parse(json.toString('utf8')) as CrawlPageSuccess, cachedAt };
    } catch (error) {
      logger.warn({ err: error }, 'page cache read failed: answered as a miss');
      return null;
    }
  }

  /** Stores a fetched page; never throws (a page that could not be stored is simply fetched again next time). */
  async put(scope: string, key: string, result: CrawlPageSuccess, cachedAt: number): Promise<void> {
    if (!this.enabled || isRedisDown(this.redis)) return;
    try {
      const packed = await compress(Buffer.from(JSON.stringify(result), 'utf8'), BROTLI);
      if (packed.length + 8 + ENTRY_OVERHEAD_BYTES > this.options.maxBytes / MAX_ENTRY_SHARE) return;
      const value = Buffer.allocUnsafe(8 + packed.length);
      value.writeDoubleBE(cachedAt, 0);
      packed.copy(value, 8);
      await this.redis.trawlPageCachePut(
        this.entryKey(scope, key),
        `${this.base}:lru`,
        `${this.base}:expiry`,
        `${this.base}:sizes`,
        `${this.base}:bytes`,
        value,
        this.options.ttlMs,
        this.clock.now().getTime(),
        this.options.maxBytes,
        ENTRY_OVERHEAD_BYTES,
      );
    } catch (error) {
      logger.warn({ err: error }, 'page cache write failed: the page was not stored');
    }
  }

  /** Bytes the entries hold together, as counted against PAGE_CACHE_MAX_BYTES. */
  async bytes(): Promise<number> {
    return Number((await this.redis.get(`${this.base}:bytes`)) ?? 0);
  }

  private entryKey(scope: string, key: string): string {
    return `${this.base}:e:${scope}:${key}`;
  }
}

/** The gateway's one PageCache, over the platform Redis. */
export const PAGE_CACHE_PROVIDER: Provider = {
  provide: PageCache,
  inject: [REDIS, TRAWL_CONFIG, CLOCK],
  useFactory: (redis: Redis, c: TrawlConfig, clock: Clock) =>
    new PageCache(redis, { maxBytes: c.PAGE_CACHE_MAX_BYTES, ttlMs: c.PAGE_CACHE_MAX_AGE_MS, prefix: c.REDIS_PREFIX }, clock),
};
