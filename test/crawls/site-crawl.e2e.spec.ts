/**
 * Site crawls end to end against the generated fixture site (bench/support/crawl-site.ts: three loopback hosts with
 * robots.txt rules and Crawl-delay, a sitemap index with a gzipped sitemap, redirects, canonical duplicates, a
 * calendar trap, failures): the exact set of pages for given depth, limit, patterns and sitemap modes; no request
 * ever to a path robots.txt disallows (the fixture's own log); credits = stored pages × price; bad input refused by
 * name at no cost.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { startCrawlSite, type CrawlSite } from '#bench/support/crawl-site.js';
import { urlKey } from '#frontier';
import { freePort } from '../support/free-port.js';
import { key, startHarness, type Harness } from '../support/harness.js';
import { pollUntil } from '../support/poll.js';
import { ledgerViolations } from '../reliability/support/trawl-invariants.js';

jest.setTimeout(120_000);

let trawl: Harness;
let site: CrawlSite;

beforeAll(async () => {
  site = await startCrawlSite({ hosts: 3, pagesPerHost: 30, crawlDelaySeconds: 0.2, hugePageBytes: 1_000_000 });
  // No default host gap: the semantics, not the politeness, are under test here (robots' Crawl-delay still holds).
  trawl = await startHarness({ CRAWL_HOST_MIN_GAP_MS: '0', CRAWL_HOST_MAX_INFLIGHT: '8' });
});

afterAll(async () => {
  await trawl?.close();
  await site?.close();
});

interface Finished {
  status: string;
  counts: { discovered: number; done: number; failed: number; skipped: number; pending: number };
  credits: number;
  pages: Array<{ url: string; source_url: string; depth: number; status_code: number; markdown?: string; links?: string[] }>;
}

async function post(apiKey: string, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${trawl.baseUrl}${path}`, { method: 'POST', headers: { ...key(apiKey), 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

/** Starts a crawl, waits for it to finish, reads every page by cursor. */
async function crawl(apiKey: string, body: Record<string, unknown>): Promise<Finished & { id: string }> {
  const started = await post(apiKey, '/crawls', { url: `${site.hosts[0]}/`, ...body });
  expect(started.status).toBe(201);
  const { id } = started.body as { id: string };
  const done = await pollUntil(async () => {
    const r = await trawl.get(`/crawls/${id}?limit=1`, key(apiKey));
    return r.body.status !== 'queued' && r.body.status !== 'running' ? r.body : null;
  }, 'the crawl to finish', 90_000, 200);
  const pages: Finished['pages'] = [];
  let next: string | null = `/crawls/${id}`;
  while (next) {
    const r = await trawl.get(next.replace(trawl.baseUrl, ''), key(apiKey));
    pages.push(...r.body.pages);
    next = r.body.next;
  }
  // Whatever stopped it, its counts add up: the URLs its page limit left unvisited count as skipped.
  const { discovered, done: stored, failed, skipped, pending } = (done as Finished).counts;
  expect({ discovered, pending }).toEqual({ discovered: stored + failed + skipped, pending: 0 });
  return { ...(done as Finished), pages, id };
}

const keysOf = (pages: Finished['pages']) => pages.map((p) => urlKey(p.url, undefined, { ignoreQuery: false })!).sort();
const balanceOf = async (accountId: string) => (await trawl.admin.report(accountId)).account.balance;

describe('site crawls on the generated site', () => {
  it('stores exactly the pages a correct crawler stores for a depth, each once, charged 1 credit each', async () => {
    const account = await trawl.createAccount('developer');
    const result = await crawl(account.apiKey, { max_depth: 2, limit: 1000 });
    expect(result.status).toBe('completed');
    expect(keysOf(result.pages)).toEqual([...site.expected({ maxDepth: 2 })].sort());
    expect(new Set(keysOf(result.pages)).size).toBe(result.pages.length);
    expect(result.counts.done).toBe(result.pages.length);
    expect(result.credits).toBe(result.pages.length);
    expect(await balanceOf(account.accountId)).toBe(100_000 - result.pages.length);
    expect(result.counts.discovered).toBe(result.counts.done + result.counts.failed + result.counts.skipped);
    expect(await ledgerViolations(trawl.db.pool)).toMatchObject({ ledgerNotBalance: [], negativeBalance: [], notOncePerRequest: [], badlyClosed: [] });
  });

  it('never requests a path robots.txt disallows, and lists what it refused', async () => {
    const account = await trawl.createAccount('developer');
    const result = await crawl(account.apiKey, { max_depth: 3 });
    const disallowed = site.log.filter((r) => (/^\/private\//.test(r.path) && !r.path.startsWith('/private/public-note')) || /[?&]sessionid=/.test(r.path));
    expect(disallowed).toEqual([]);
    const errors = await trawl.get(`/crawls/${result.id}/errors`, key(account.apiKey));
    expect(errors.body.robots_blocked.length).toBeGreaterThan(0);
    expect(errors.body.robots_blocked.every((u: string) => /\/private\/|sessionid=/.test(u))).toBe(true);
  });

  it('reports a site it cannot reach by the fetch error, not as disallowed by robots.txt, at no cost', async () => {
    const account = await trawl.createAccount('developer');
    const closed = `http://127.0.0.1:${await freePort()}/`;
    const result = await crawl(account.apiKey, { url: closed });
    expect(result).toMatchObject({ status: 'completed', pages: [], credits: 0, counts: { done: 0, failed: 1 } });
    const errors = await trawl.get(`/crawls/${result.id}/errors`, key(account.apiKey));
    expect(errors.body.robots_blocked).toEqual([]);
    expect(errors.body.errors).toHaveLength(1);
    expect(errors.body.errors[0]).toMatchObject({ url: closed });
    expect(errors.body.errors[0].code).not.toBe('ROBOTS_DISALLOWED');
    expect(errors.body.errors[0].message).toMatch(/^robots\.txt of http:\/\/127\.0\.0\.1:\d+ could not be fetched \(.+\)/);
    expect(await balanceOf(account.accountId)).toBe(100_000);
  });

  it("spaces only its own pages by a long delay_ms: another crawl of the same host is not held back", async () => {
    const account = await trawl.createAccount('developer');
    const slow = await post(account.apiKey, '/crawls', { url: `${site.hosts[2]}/`, limit: 5, sitemap: 'skip', delay_ms: 60_000 });
    expect(slow.status).toBe(201);
    // Its first page is stored (the host's turn for it is now a minute away) …
    await pollUntil(async () => ((await trawl.get(`/crawls/${slow.body.id}?limit=1`, key(account.apiKey))).body.counts.done >= 1 ? true : null), 'the slow crawl to store its first page', 30_000, 100);
    // … and a batch of that host's pages runs at the default gap, long before the slow crawl's next page.
    const started = Date.now();
    const batch = await post(account.apiKey, '/batches', { urls: [`${site.hosts[2]}/docs/`, `${site.hosts[2]}/blog/`] });
    expect(batch.status).toBe(201);
    const done = await pollUntil(async () => {
      const r = await trawl.get(`/batches/${batch.body.id}?limit=1`, key(account.apiKey));
      return r.body.status === 'completed' ? r.body : null;
    }, 'the batch to finish', 45_000, 100);
    expect(done.counts.done).toBe(2);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect((await trawl.get(`/crawls/${slow.body.id}?limit=1`, key(account.apiKey))).body.counts.done).toBe(1);
    await fetch(`${trawl.baseUrl}/crawls/${slow.body.id}`, { method: 'DELETE', headers: key(account.apiKey) });
  });

  it('honours include and exclude patterns, sitemap modes and a page limit', async () => {
    const account = await trawl.createAccount('developer');
    const docs = await crawl(account.apiKey, { max_depth: 3, include_paths: ['^/docs/'] });
    expect(keysOf(docs.pages)).toEqual([...site.expected({ maxDepth: 3, includePaths: ['^/docs/'] })].sort());
    const noBlog = await crawl(account.apiKey, { max_depth: 2, exclude_paths: ['^/blog/'] });
    expect(keysOf(noBlog.pages)).toEqual([...site.expected({ maxDepth: 2, excludePaths: ['^/blog/'] })].sort());
    for (const sitemap of ['skip', 'only'] as const) {
      const result = await crawl(account.apiKey, { max_depth: 2, sitemap });
      expect({ sitemap, keys: keysOf(result.pages) }).toEqual({ sitemap, keys: [...site.expected({ maxDepth: 2, sitemap })].sort() });
    }
    const all = site.expected({ maxDepth: 3 });
    const limited = await crawl(account.apiKey, { max_depth: 3, limit: 12 });
    expect(limited.pages).toHaveLength(12);
    expect(keysOf(limited.pages).every((k) => all.includes(k))).toBe(true);
    expect(limited.credits).toBe(12);
  });

  it('refuses bad input by name, before anything is recorded or charged', async () => {
    const account = await trawl.createAccount();
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ url: 'ftp://x.example/' }, /^url: /],
      // Patterns run on RE2 (linear time): what needs backtracking, a lookahead here, is refused.
      [{ url: `${site.hosts[0]}/`, include_paths: ['^/(?!private)'] }, /include_paths/],
      [{ url: `${site.hosts[0]}/`, include_paths: ['['] }, /include_paths/],
      [{ url: `${site.hosts[0]}/`, limit: 0 }, /^limit/],
      [{ url: `${site.hosts[0]}/`, sitemap: 'sometimes' }, /^sitemap/],
      [{ url: `${site.hosts[0]}/`, max_depth: -1 }, /^max_depth/],
      [{ url: `${site.hosts[0]}/`, webhook: { url: 'not a url' } }, /webhook\.url/],
      [{ url: `${site.hosts[0]}/`, colour: 'blue' }, /colour/],
    ];
    for (const [body, message] of bad) {
      const res = await post(account.apiKey, '/crawls', body);
      expect({ body, status: res.status, code: res.body.error?.code }).toEqual({ body, status: 400, code: 'INVALID_PARAMETER' });
      expect(res.body.error.message).toMatch(message);
    }
    expect((await trawl.get('/crawls', key(account.apiKey))).body.crawls).toEqual([]);
    expect(await balanceOf(account.accountId)).toBe(10_000);
  });
});
