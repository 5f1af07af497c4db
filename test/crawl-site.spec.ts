/**
 * The generated crawl fixture (bench/support/crawl-site.ts) serves what it says, and its expected() agrees with a
 * small reference crawler written here from libs/frontier's functions over plain fetch(): breadth-first (the same
 * order, exactly) and in random orders (the same set: depths do not depend on fetch order). This also tests
 * libs/frontier end to end on real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Parser } from 'htmlparser2';
import {
  canonicalKey,
  compilePatterns,
  documentBase,
  followableLinks,
  inScope,
  parseRobots,
  parseSitemap,
  pathPattern,
  urlKey,
  type CrawlScope,
  type RobotsRules,
} from '#frontier';
import { startCrawlSite, type CrawlSite, type ExpectOptions } from '#bench/support/crawl-site.js';
import { prng } from '#bench/support/crawl-site-model.js';

const UA = 'TrawlTest/1.0';
let site: CrawlSite;

beforeAll(async () => {
  site = await startCrawlSite({ seed: 7, hosts: 3, pagesPerHost: 50, crawlDelaySeconds: 0.2, hugePageBytes: 5_000_000 });
});
afterAll(async () => {
  await site?.close();
});

interface Page {
  anchors: Array<{ href: string; rel?: string }>;
  baseHref?: string;
  canonical?: string;
}

function parsePage(html: string): Page {
  const page: Page = { anchors: [] };
  const parser = new Parser({
    onopentag(name, attrs) {
      if ((name === 'a' || name === 'area') && attrs.href !== undefined) page.anchors.push({ href: attrs.href, rel: attrs.rel });
      else if (name === 'base' && attrs.href !== undefined && page.baseHref === undefined) page.baseHref = attrs.href;
      else if (name === 'link' && attrs.rel?.toLowerCase().split(/\s+/).includes('canonical') && page.canonical === undefined) page.canonical = attrs.href;
    },
  });
  parser.end(html);
  return page;
}

const get = (url: string): Promise<Response> => fetch(url, { redirect: 'manual', headers: { 'user-agent': UA } });

/** A sequential crawler by the fixture's documented rules, built from libs/frontier. */
async function referenceCrawl(opts: ExpectOptions, order: { random?: number } = {}): Promise<{ stored: string[]; failed: string[] }> {
  const start = `${site.hosts[0]}/`;
  const keyOptions = { ignoreQuery: opts.ignoreQuery ?? false };
  const scope: CrawlScope = {
    start,
    allowSubdomains: opts.allowSubdomains ?? false,
    allowExternal: opts.allowExternal ?? false,
    include: compilePatterns(opts.includePaths ?? [], 'includePaths'),
    exclude: compilePatterns(opts.excludePaths ?? [], 'excludePaths'),
    maxUrlLength: 2048,
  };
  const maxDepth = opts.maxDepth ?? Infinity;
  const sitemapMode = opts.sitemap ?? 'include';
  const robots = new Map<string, RobotsRules>();
  const rulesFor = async (url: string): Promise<RobotsRules> => {
    const origin = new URL(url).origin;
    if (!robots.has(origin)) {
      const res = await get(`${origin}/robots.txt`).catch(() => null);
      robots.set(origin, parseRobots(`${origin}/robots.txt`, res?.status ?? null, res ? await res.text() : '', UA));
    }
    return robots.get(origin)!;
  };
  const admissible = async (key: string, exempt = false): Promise<boolean> => {
    const verdict = inScope(key, exempt ? { ...scope, include: [], exclude: [] } : scope);
    if (!verdict.ok) return false;
    return !(opts.respectRobots ?? true) || (await rulesFor(key)).allowed(key);
  };
  const seen = new Set<string>();
  const shapes = new Map<string, number>();
  const buckets: string[][] = [];
  const rand = order.random === undefined ? null : prng(order.random);
  const out = { stored: [] as string[], failed: [] as string[] };
  const admit = async (key: string | null, depth: number, exempt = false): Promise<void> => {
    if (key === null || seen.has(key) || !(await admissible(key, exempt))) return;
    if (opts.patternCap !== undefined) {
      const shape = `${new URL(key).host}${pathPattern(key)}`;
      const n = shapes.get(shape) ?? 0;
      if (n >= opts.patternCap) return;
      shapes.set(shape, n + 1);
    }
    seen.add(key);
    (buckets[depth] ??= []).push(key);
  };

  await admit(urlKey(start, undefined, keyOptions), 0, true);
  if (sitemapMode !== 'skip') {
    const sitemaps = [...(await rulesFor(start)).sitemaps(), `${site.hosts[0]}/sitemap.xml`];
    for (let i = 0; i < sitemaps.length && i < 20; i++) {
      if (sitemaps.indexOf(sitemaps[i]) !== i) continue;
      const res = await get(sitemaps[i]);
      const parsed = parseSitemap(new Uint8Array(await res.arrayBuffer()));
      sitemaps.push(...parsed.sitemaps);
      for (const { loc } of parsed.urls) await admit(urlKey(loc, undefined, keyOptions), 0);
    }
  }

  const visit = async (key: string, depth: number): Promise<void> => {
    let url = key;
    let res = await get(url);
    for (let hops = 0; res.status >= 300 && res.status < 400; hops++) {
      const next = hops < 10 ? urlKey(res.headers.get('location') ?? '', url, keyOptions) : null;
      await res.arrayBuffer();
      if (next === null || !(await admissible(next))) return void out.failed.push(key);
      url = next;
      res = await get(url);
    }
    if (res.status !== 200 || !res.headers.get('content-type')?.startsWith('text/html')) {
      await res.arrayBuffer();
      return void out.failed.push(key);
    }
    const page = parsePage(await res.text());
    const finalKey = urlKey(url, undefined, keyOptions)!;
    if (finalKey !== key) {
      if (seen.has(finalKey)) return;
      seen.add(finalKey);
    }
    const base = documentBase(url, page.baseHref);
    const canonical = canonicalKey(page.canonical, base, keyOptions);
    if (canonical !== null && canonical !== finalKey && (await admissible(canonical))) {
      if (!seen.has(canonical)) {
        seen.add(canonical);
        buckets[depth].push(canonical);
      }
      return;
    }
    out.stored.push(finalKey);
    if (depth >= maxDepth || sitemapMode === 'only') return;
    for (const link of followableLinks(page.anchors, base, keyOptions)) await admit(link, depth + 1);
  };

  if (rand === null) {
    for (let depth = 0; depth < buckets.length; depth++) {
      for (let i = 0; i < (buckets[depth]?.length ?? 0) && out.stored.length < (opts.limit ?? Infinity); i++) await visit(buckets[depth][i], depth);
    }
  } else {
    // Any order: the next URL is drawn at random from everything admitted and not yet fetched.
    const pending = (): Array<[string, number]> => buckets.flatMap((b, depth) => (b ?? []).map((k) => [k, depth] as [string, number]));
    const done = new Set<string>();
    for (;;) {
      const open = pending().filter(([k]) => !done.has(k));
      if (open.length === 0) break;
      const [key, depth] = open[Math.floor(rand() * open.length)];
      done.add(key);
      await visit(key, depth);
    }
  }
  return out;
}

describe('crawl fixture site', () => {
  it('serves several hosts on one port, robots.txt with its rules, a sitemap index with a gzipped sitemap', async () => {
    expect(site.hosts).toHaveLength(3);
    expect(new Set(site.hosts.map((h) => new URL(h).port)).size).toBe(1);
    expect(site.hosts[1]).toMatch(/^http:\/\/127\.0\.0\.3:\d+$/);
    const body = await (await get(`${site.hosts[0]}/robots.txt`)).text();
    const rules = parseRobots(`${site.hosts[0]}/robots.txt`, 200, body, UA);
    expect(rules.allowed(`${site.hosts[0]}/private/report-a`)).toBe(false);
    expect(rules.allowed(`${site.hosts[0]}/private/public-note`)).toBe(true);
    expect(rules.allowed(`${site.hosts[0]}/docs/?sessionid=1`)).toBe(false);
    expect(rules.crawlDelayMs()).toBeNull();
    expect(rules.sitemaps()).toEqual([`${site.hosts[0]}/sitemap.xml`, `${site.hosts[0]}/sitemap-news.txt`]);
    expect(parseRobots(`${site.hosts[0]}/robots.txt`, 200, body, 'BadBot').allowed(`${site.hosts[0]}/`)).toBe(false);
    const delayed = await (await get(`${site.hosts[1]}/robots.txt`)).text();
    expect(parseRobots(`${site.hosts[1]}/robots.txt`, 200, delayed, UA).crawlDelayMs()).toBe(200);

    const index = parseSitemap(new Uint8Array(await (await get(`${site.hosts[0]}/sitemap.xml`)).arrayBuffer()));
    expect(index.kind).toBe('index');
    const gz = index.sitemaps.find((s) => s.endsWith('.xml.gz'))!;
    const bytes = new Uint8Array(await (await get(gz)).arrayBuffer());
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
    expect(parseSitemap(bytes).urls.map((u) => new URL(u.loc).pathname)).toContain('/private/orphan');
  });

  it('serves redirects, failures, files, the huge page, the hub and an endless calendar', async () => {
    const [h] = site.hosts;
    expect((await get(`${h}/chain/1`)).status).toBe(302);
    expect((await get(`${h}/chain/2`)).headers.get('location')).toBe('/chain/3');
    expect((await get(`${h}/elsewhere`)).headers.get('location')).toBe(`${site.hosts[1]}/`);
    expect((await get(`${h}/broken`)).status).toBe(500);
    expect((await get(`${h}/nowhere`)).status).toBe(404);
    expect((await get(`${h}/files/report.pdf`)).headers.get('content-type')).toBe('application/pdf');
    const huge = await (await get(`${h}/docs/huge`)).text();
    expect(huge.length).toBeGreaterThan(5_000_000);
    const hub = parsePage(await (await get(`${h}/all-links`)).text());
    expect(hub.anchors.length).toBeGreaterThan(300);
    expect(hub.baseHref).toBe('/docs/');
    const far = parsePage(await (await get(`${h}/calendar/2025/02/03`)).text());
    expect(far.anchors.map((a) => a.href)).toContain('/calendar/2025/02/04');
    const variant = parsePage(await (await get(`${h}/docs/index.html?ref=x`)).text());
    expect(variant.canonical).toBe(`${h}/docs/`);
    expect(site.log.some((e) => e.path === '/docs/index.html?ref=x' && e.ua === UA)).toBe(true);
  });

  it('has one shape with more than 9 URLs, the calendar (so patternCap only cuts the trap)', () => {
    const stored = site.expected({ maxDepth: 30, allowExternal: true, respectRobots: false });
    const shapes = new Map<string, number>();
    for (const key of stored) shapes.set(pathPattern(key), (shapes.get(pathPattern(key)) ?? 0) + 1);
    expect([...shapes].filter(([, n]) => n > 9).map(([shape]) => shape)).toEqual(['/calendar/{n}/{n}/{n}']);
    expect(() => site.expected({})).toThrow(/calendar trap/);
  });

  const cases: Array<[string, ExpectOptions]> = [
    ['defaults with a pattern cap', { patternCap: 20 }],
    ['maxDepth 2', { maxDepth: 2 }],
    ['sitemap only', { sitemap: 'only', patternCap: 20 }],
    ['sitemap skip, maxDepth 3', { sitemap: 'skip', maxDepth: 3 }],
    ['allowExternal, maxDepth 3', { allowExternal: true, maxDepth: 3 }],
    ['ignoreQuery without robots, maxDepth 3', { ignoreQuery: true, respectRobots: false, maxDepth: 3 }],
    ['without robots, maxDepth 4', { respectRobots: false, maxDepth: 4 }],
    ['include and exclude paths', { includePaths: ['^/(docs|blog|private)/'], excludePaths: ['/print/', 'report-b'], patternCap: 20 }],
    ['limit 25', { limit: 25, patternCap: 20 }],
  ];
  it.each(cases)('expected() is what a breadth-first reference crawl stores: %s', async (_, opts) => {
    const logged = site.log.length;
    const ref = await referenceCrawl(opts);
    expect(ref.stored).toEqual(site.expected(opts));
    expect(ref.failed.sort()).toEqual(site.outcomes(opts).failed.sort());
    if (opts.respectRobots ?? true) {
      // Zero requests to disallowed paths (robots.txt of each host, for this crawler's user agent).
      const robots = new Map(await Promise.all(site.hosts.map(async (h) => [new URL(h).host, parseRobots(`${h}/robots.txt`, 200, await (await get(`${h}/robots.txt`)).text(), UA)] as const)));
      const disallowed = site.log.slice(logged).filter((e) => e.ua === UA && !robots.get(e.host)!.allowed(`http://${e.host}${e.path}`));
      expect(disallowed).toEqual([]);
    }
  });

  it.each([1, 2, 3])('expected() does not depend on fetch order (random order %i)', async (seed) => {
    for (const opts of [{ patternCap: 20 }, { maxDepth: 2 }, { allowExternal: true, maxDepth: 3 }, { ignoreQuery: true, maxDepth: 3, respectRobots: false }] as ExpectOptions[]) {
      const ref = await referenceCrawl(opts, { random: seed });
      expect([...ref.stored].sort()).toEqual([...site.expected(opts)].sort());
    }
  });

  it('gives different sets for sitemap include, only and skip, and a redirect is stored under its target', () => {
    const include = site.expected({ maxDepth: 3 });
    const only = site.expected({ sitemap: 'only' });
    const skip = site.expected({ sitemap: 'skip', maxDepth: 3 });
    const archive = (keys: string[]) => keys.filter((k) => k.includes('/archive/'));
    expect(archive(include).length).toBeGreaterThan(0);
    expect(archive(skip)).toEqual([]);
    expect(only.every((k) => k === `${site.hosts[0]}/` || k.includes('/archive/'))).toBe(true);
    expect(include).toContain(`${site.hosts[0]}/landing`);
    expect(include.some((k) => k.includes('/chain/') || k.includes('/r/moved'))).toBe(false);
    expect(include).not.toContain(`${site.hosts[0]}/docs/nofollow-only`);
    expect(include).not.toContain(`${site.hosts[0]}/private/archive`);
    expect(site.expected({ maxDepth: 3, respectRobots: false })).toContain(`${site.hosts[0]}/private/archive`);
  });
});
