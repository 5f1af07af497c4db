/**
 * Bytes per URL of a crawl's seen-set in Redis, four ways: a SET of URL keys (libs/frontier urlKey form), a SET of
 * 64-bit hashes (urlHash, 11 base64url characters; and the same 8 bytes raw), the 64-bit hashes as integers in
 * small SETs that Redis keeps as intsets, and a Bloom filter (a Redis string
 * used as a bitmap, k hash positions per URL from SHA-256, sized for a false-positive rate p). A Bloom filter's
 * false positive is a URL the crawl believes it has seen: a page never crawled. Its rate is measured here on URLs
 * not inserted.
 *
 * URLs of realistic shapes (product pages with ids and queries, dated blog posts, nested docs, paginated listings,
 * 60–120 characters) are generated from a seed. Each set is written in pipelined batches under a unique key prefix,
 * measured with MEMORY USAGE … SAMPLES 0 (every element counted), and deleted; every key of the run is removed on
 * exit or interruption.
 *
 *   npm run build && node dist/bench/crawl/seen-set.js [--sizes=100000,1000000] [--fp=0.001,0.000001]
 * Needs Redis: BENCH_REDIS_URL (default redis://127.0.0.1:6379).
 */
import { createHash, randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { urlHash, urlKey } from '#frontier';
import { prng } from '../support/crawl-site-model.js';

const { values } = parseArgs({ options: { sizes: { type: 'string', default: '100000,1000000' }, fp: { type: 'string', default: '0.001,0.000001' } } });
const SIZES = values.sizes.split(',').map(Number);
const FP_RATES = values.fp.split(',').map(Number);
const BATCH = 1000;

const redis = new Redis(process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 3 });
const prefix = `bench:seen-set:${process.pid}:${randomBytes(4).toString('hex')}:`;
const written = new Set<string>();

const WORDS = 'blue river summer garden travel winter kitchen modern classic outdoor leather cotton wireless digital vintage organic'.split(' ');

/** `count` distinct URL keys of realistic shapes; `salt` gives a disjoint set (for false-positive checks). */
function urls(count: number, salt: number): string[] {
  const rand = prng(salt);
  const word = () => WORDS[Math.floor(rand() * WORDS.length)];
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = `${salt}${i}`;
    const shapes = [
      () => `https://www.example-shop.com/${word()}-${word()}/product-${id}-${word()}-${word()}?color=${word()}&size=${Math.floor(rand() * 5)}`,
      () => `https://blog.example.org/${2015 + Math.floor(rand() * 10)}/${1 + Math.floor(rand() * 12)}/${word()}-${word()}-${word()}-${id}`,
      () => `https://docs.example.dev/guides/${word()}/${word()}/${word()}-${word()}-${id}.html`,
      () => `https://news.example.net/section/${word()}?page=${id}&sort=${word()}`,
    ];
    out.push(urlKey(shapes[i % shapes.length](), undefined, { ignoreQuery: false })!);
  }
  return out;
}

async function addAll(key: string, members: Array<string | Buffer>): Promise<void> {
  written.add(key);
  for (let i = 0; i < members.length; i += BATCH * 20) {
    const pipeline = redis.pipeline();
    for (let j = i; j < Math.min(members.length, i + BATCH * 20); j += BATCH) pipeline.sadd(key, ...members.slice(j, j + BATCH));
    await pipeline.exec();
  }
}

async function usage(key: string): Promise<number> {
  return Number(await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0'));
}

/**
 * The same 64-bit hashes as integers in many small SETs: Redis keeps a SET of at most set-max-intset-entries (512)
 * integers as an intset, a sorted array of 8-byte values, instead of a hash table (~40 bytes of overhead a member).
 * Shards are chosen from the hash's top bits so each holds ~256 on average (the crawl's URL budget decides how
 * many); a shard that outgrows 512 just turns into a hash table.
 */
async function sharded(n: number, keys: string[], avg: number): Promise<Row> {
  const shardBits = Math.max(0, Math.ceil(Math.log2(n / 256)));
  const shards = new Map<number, string[]>();
  for (const k of keys) {
    const value = Buffer.from(urlHash(k), 'base64url').readBigUInt64BE(0);
    const shard = shardBits === 0 ? 0 : Number(value >> BigInt(64 - shardBits));
    const list = shards.get(shard) ?? [];
    list.push(BigInt.asIntN(64, value).toString());
    shards.set(shard, list);
  }
  for (const [shard, members] of shards) await addAll(`${prefix}int:${n}:${shard}`, members);
  const pipeline = redis.pipeline();
  for (const shard of shards.keys()) pipeline.call('MEMORY', 'USAGE', `${prefix}int:${n}:${shard}`, 'SAMPLES', '0');
  const bytes = ((await pipeline.exec()) ?? []).reduce((sum, [, v]) => sum + Number(v), 0);
  const encoding = await redis.object('ENCODING', `${prefix}int:${n}:${[...shards.keys()][0]}`);
  const names = [...shards.keys()].map((shard) => `${prefix}int:${n}:${shard}`);
  for (let i = 0; i < names.length; i += 500) await redis.unlink(...names.slice(i, i + 500));
  for (const name of names) written.delete(name);
  return {
    urls: n,
    structure: `${shards.size} SETs of 64-bit integers (${encoding})`,
    'avg key chars': avg,
    'redis bytes': bytes,
    'bytes/URL': Number((bytes / n).toFixed(1)),
    'false positives': '~n²/2⁶⁵ (collisions)',
  };
}

/** Bloom filter parameters for n items at false-positive rate p: m bits, k hashes. */
function bloomSize(n: number, p: number): { bits: number; hashes: number } {
  const bits = Math.ceil((-n * Math.log(p)) / Math.LN2 ** 2);
  return { bits, hashes: Math.max(1, Math.round((bits / n) * Math.LN2)) };
}

/** k bit positions of a URL (Kirsch–Mitzenmacher double hashing over two 64-bit halves of its SHA-256). */
function positions(url: string, bits: number, hashes: number): number[] {
  const d = createHash('sha256').update(url).digest();
  const h1 = d.readBigUInt64BE(0);
  const h2 = d.readBigUInt64BE(8);
  const m = BigInt(bits);
  return Array.from({ length: hashes }, (_, i) => Number((h1 + BigInt(i) * h2) % m));
}

interface Row {
  urls: number;
  structure: string;
  'avg key chars': number;
  'redis bytes': number;
  'bytes/URL': number;
  'false positives': string;
}

async function measure(n: number): Promise<Row[]> {
  const keys = urls(n, 1);
  const avg = Math.round(keys.reduce((s, k) => s + k.length, 0) / n);
  const rows: Row[] = [];
  const row = async (structure: string, key: string, fp = '0 (exact)'): Promise<void> => {
    const bytes = await usage(key);
    rows.push({ urls: n, structure, 'avg key chars': avg, 'redis bytes': bytes, 'bytes/URL': Number((bytes / n).toFixed(1)), 'false positives': fp });
    await redis.unlink(key);
    written.delete(key);
  };
  await addAll(`${prefix}keys:${n}`, keys);
  await row('SET of URL keys', `${prefix}keys:${n}`);
  await addAll(`${prefix}hash64:${n}`, keys.map(urlHash));
  await row('SET of urlHash (11 chars)', `${prefix}hash64:${n}`, '~n²/2⁶⁵ (collisions)');
  await addAll(`${prefix}hash64raw:${n}`, keys.map((k) => Buffer.from(urlHash(k), 'base64url')));
  await row('SET of 8 raw bytes', `${prefix}hash64raw:${n}`, '~n²/2⁶⁵ (collisions)');
  rows.push(await sharded(n, keys, avg));

  const probes = urls(Math.min(n, 200_000), 2);
  for (const p of FP_RATES) {
    const { bits, hashes } = bloomSize(n, p);
    const bitmap = Buffer.alloc(Math.ceil(bits / 8));
    const set = (pos: number) => (bitmap[pos >> 3] |= 0x80 >> (pos & 7)); // SETBIT's bit order
    for (const k of keys) for (const pos of positions(k, bits, hashes)) set(pos);
    let falsePositives = 0;
    for (const k of probes) if (positions(k, bits, hashes).every((pos) => (bitmap[pos >> 3] & (0x80 >> (pos & 7))) !== 0)) falsePositives++;
    const key = `${prefix}bloom:${n}:${p}`;
    written.add(key);
    // The same bytes SETBIT would leave: the filter is built here and written at once, only its size is measured.
    await redis.set(key, bitmap);
    await row(`Bloom filter p=${p} (k=${hashes})`, key, `${falsePositives}/${probes.length} not inserted`);
  }
  return rows;
}

const cleanup = async (): Promise<void> => {
  const names = [...written];
  for (let i = 0; i < names.length; i += 500) await redis.unlink(...names.slice(i, i + 500));
  written.clear();
};
process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));

try {
  const info = await redis.info('server');
  const intset = (await redis.config('GET', 'set-max-intset-entries')) as string[];
  console.log(`redis ${/redis_version:(\S+)/.exec(info)?.[1]}; set-max-intset-entries ${intset[1] ?? '?'}`);
  const rows: Row[] = [];
  for (const n of SIZES) rows.push(...(await measure(n)));
  console.table(rows);
  console.log(JSON.stringify({ bench: 'seen-set', rows }));
} finally {
  await cleanup();
  redis.disconnect();
}
