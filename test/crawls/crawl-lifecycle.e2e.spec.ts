/**
 * A crawl's life around its pages: batches, reading by cursor, the active list, another account's crawl, cancel
 * (no page starts 2 s after it), an account running out of credits (the crawl stops, its pages kept), and webhooks
 * (signed, retried after a failure, at-least-once with ids to de-duplicate on).
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startCrawlSite, type CrawlSite } from '#bench/support/crawl-site.js';
import { FrontierStore } from '#crawls';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { key, startHarness, type Harness } from '../support/harness.js';
import { pollUntil } from '../support/poll.js';
import { ledgerViolations } from '../reliability/support/trawl-invariants.js';

jest.setTimeout(120_000);

let trawl: Harness;
let site: CrawlSite;
let pages: FixtureServer;

interface Delivery {
  id: string;
  type: string;
  body: string;
  signature: string;
}
let hooks: Server;
let hookUrl: string;
const deliveries: Delivery[] = [];
const refusedOnce = new Set<string>();

beforeAll(async () => {
  site = await startCrawlSite({ hosts: 1, pagesPerHost: 40, crawlDelaySeconds: null, hugePageBytes: 0, trap: false });
  pages = await startFixtureServer({
    '/a': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(html('<h1>A</h1><p>Page a of the batch, with words enough.</p>')),
    '/b': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(html('<h1>B</h1><p>Page b of the batch, with words enough.</p>')),
    '/missing': (_q, res) => void res.writeHead(404, { 'content-type': 'text/html' }).end(html('<p>Not here.</p>')),
    // Holds its request half a second, then drops the connection: a page that fails late.
    '/hang-up': (_q, res) => void setTimeout(() => res.destroy(), 500),
  });
  // A webhook receiver that refuses each event's first delivery (500), so every event is delivered at least twice.
  hooks = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const id = String(req.headers['x-trawl-event-id']);
      deliveries.push({ id, type: String(req.headers['x-trawl-event']), body, signature: String(req.headers['x-trawl-signature']) });
      if (!refusedOnce.has(id)) {
        refusedOnce.add(id);
        return void res.writeHead(500).end();
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hooks`;
  trawl = await startHarness({ CRAWL_HOST_MIN_GAP_MS: '0', WEBHOOK_BACKOFF_MS: '100' });
});

afterAll(async () => {
  await trawl?.close();
  await site?.close();
  await pages?.close();
  await new Promise<void>((resolve) => hooks?.close(() => resolve()));
});

async function post(apiKey: string, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${trawl.baseUrl}${path}`, { method: 'POST', headers: { ...key(apiKey), 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

const finished = (apiKey: string, id: string) =>
  pollUntil(async () => {
    const r = await trawl.get(`/crawls/${id}?limit=1`, key(apiKey));
    return r.body.status !== 'queued' && r.body.status !== 'running' ? r.body : null;
  }, 'the crawl to finish', 90_000, 200);

const balanceOf = async (accountId: string) => (await trawl.admin.report(accountId)).account.balance;

describe('crawl life', () => {
  it('runs a batch over a list: each URL once, a 404 kept with its status as /crawl does, invalid URLs left out when asked', async () => {
    const account = await trawl.createAccount();
    const urls = [`${pages.url}/a`, `${pages.url}/b`, `${pages.url}/a`, `${pages.url}/missing`, 'http://127.0.0.1:1/closed', 'not a url'];
    expect((await post(account.apiKey, '/batches', { urls })).body.error.message).toMatch(/^urls\[5\]: .*ignore_invalid_urls/);
    const started = await post(account.apiKey, '/batches', { urls, ignore_invalid_urls: true, markdown: true });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ status: 'queued', invalid_urls: ['not a url'] });
    const done = await finished(account.apiKey, started.body.id);
    expect(done).toMatchObject({ kind: 'batch', status: 'completed', counts: { discovered: 4, done: 3, failed: 1, pending: 0 }, credits: 3 });
    const read = await trawl.get(`/batches/${started.body.id}`, key(account.apiKey));
    expect(read.body.pages.map((p: { url: string; status_code: number }) => [new URL(p.url).pathname, p.status_code]).sort()).toEqual([['/a', 200], ['/b', 200], ['/missing', 404]]);
    expect(read.body.pages.find((p: { url: string }) => p.url.endsWith('/a')).markdown).toMatch(/Page a of the batch/);
    // Final as soon as the batch reads completed: the URL that failed was refunded before.
    expect(await balanceOf(account.accountId)).toBe(10_000 - 3);
  });

  it('reads pages by cursor across several answers: each once, `next` null at the end; other accounts get 404', async () => {
    const account = await trawl.createAccount('developer');
    const started = await post(account.apiKey, '/crawls', { url: `${site.hosts[0]}/`, max_depth: 3, sitemap: 'skip' });
    const done = await finished(account.apiKey, started.body.id);
    const seen: string[] = [];
    let next: string | null = `/crawls/${started.body.id}?limit=7`;
    let answers = 0;
    while (next) {
      const r = await trawl.get(next.replace(trawl.baseUrl, ''), key(account.apiKey));
      expect(r.body.pages.length).toBeLessThanOrEqual(7);
      seen.push(...r.body.pages.map((p: { url: string }) => p.url));
      next = r.body.next;
      answers++;
    }
    expect(answers).toBeGreaterThan(2);
    expect(seen).toHaveLength(done.counts.done);
    expect(new Set(seen).size).toBe(seen.length);
    const export_ = await fetch(`${trawl.baseUrl}/crawls/${started.body.id}/export`, { headers: key(account.apiKey) });
    expect(export_.headers.get('content-type')).toMatch(/application\/x-ndjson/);
    const lines = (await export_.text()).trim().split('\n').map((l) => JSON.parse(l) as { url: string });
    expect(lines.map((l) => l.url).sort()).toEqual([...seen].sort());
    const stranger = await trawl.createAccount();
    expect((await trawl.get(`/crawls/${started.body.id}`, key(stranger.apiKey))).status).toBe(404);
    expect((await trawl.get(`/crawls/${randomUUID()}`, key(account.apiKey))).body.error.code).toBe('NOT_FOUND');
  });

  it('cancels promptly: listed as active before, no page starts 2 s after the cancel, a second cancel is a 409', async () => {
    const account = await trawl.createAccount('developer');
    // One page at a time, 400 ms apart: without the cancel, a request would arrive every 0.4 s.
    const started = await post(account.apiKey, '/crawls', { url: `${site.hosts[0]}/`, max_depth: 5, concurrency: 1, delay_ms: 400 });
    await pollUntil(async () => (await trawl.get(`/crawls/${started.body.id}?limit=1`, key(account.apiKey))).body.counts.done >= 2, 'two pages');
    expect((await trawl.get('/crawls', key(account.apiKey))).body.crawls.map((c: { id: string }) => c.id)).toEqual([started.body.id]);
    const cancelled = await fetch(`${trawl.baseUrl}/crawls/${started.body.id}`, { method: 'DELETE', headers: key(account.apiKey) });
    expect(await cancelled.json()).toEqual({ id: started.body.id, status: 'cancelled' });
    const at = performance.now();
    // An absence is asserted over a window: 2.5 s is six times the crawl's pace.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(site.log.filter((r) => r.at > at + 2_000)).toEqual([]);
    const status = await trawl.get(`/crawls/${started.body.id}`, key(account.apiKey));
    expect(status.body.status).toBe('cancelled');
    expect(status.body.credits).toBe(status.body.counts.done);
    // The URLs it admitted and never visited count as skipped: the counts add up once it has stopped.
    const { discovered, done, failed, skipped, pending } = status.body.counts;
    expect(discovered).toBeGreaterThan(done);
    expect({ sum: done + failed + skipped, pending }).toEqual({ sum: discovered, pending: 0 });
    expect((await trawl.get('/crawls', key(account.apiKey))).body.crawls).toEqual([]);
    const again = await fetch(`${trawl.baseUrl}/crawls/${started.body.id}`, { method: 'DELETE', headers: key(account.apiKey) });
    expect(again.status).toBe(409);
  });

  it('ends a cancel as cancelled when its process died after marking the stop: the page in flight does not complete it', async () => {
    const account = await trawl.createAccount('developer');
    const started = await post(account.apiKey, '/crawls', { url: `${site.hosts[0]}/`, max_depth: 5, concurrency: 1, delay_ms: 300 });
    const id = started.body.id as string;
    await pollUntil(async () => (await trawl.get(`/crawls/${id}?limit=1`, key(account.apiKey))).body.counts.done >= 2, 'two pages');
    // The first half of a cancel, as the process that took it wrote it before dying: the stop and its reason, no row.
    await trawl.app.get(FrontierStore).stop(id, { status: 'cancelled', error: null });
    // Whoever ends the crawl now — the visit in flight as it finishes, or the sweeper — ends it as cancelled.
    const status = await pollUntil(async () => {
      const s = await trawl.get(`/crawls/${id}`, key(account.apiKey));
      return s.body.status === 'running' || s.body.status === 'queued' ? null : s.body;
    }, 'the crawl to end', 30_000, 50);
    expect(status.status).toBe('cancelled');
    expect(status.credits).toBe(status.counts.done);
  });

  it('stops a crawl whose account ran out of credits, keeping its pages and charging exactly them', async () => {
    const account = await trawl.createAccount();
    // Another call holds all but 5 of the account's credits.
    const holder = randomUUID();
    expect((await trawl.ledger.reserve(account.accountId, holder, 10_000 - 5, 600_000)).ok).toBe(true);
    const started = await post(account.apiKey, '/crawls', { url: `${site.hosts[0]}/`, max_depth: 3, sitemap: 'skip' });
    const done = await finished(account.apiKey, started.body.id);
    expect(done).toMatchObject({ status: 'credits_exhausted', counts: { done: 5 }, credits: 5 });
    expect(done.counts.discovered).toBe(done.counts.done + done.counts.failed + done.counts.skipped);
    expect(done.error).toMatch(/^CREDITS_EXHAUSTED/);
    expect((await trawl.get(`/crawls/${started.body.id}`, key(account.apiKey))).body.pages).toHaveLength(5);
    await trawl.ledger.refund(holder, 'test');
    expect(await balanceOf(account.accountId)).toBe(10_000 - 5);
    expect(await ledgerViolations(trawl.db.pool)).toMatchObject({ ledgerNotBalance: [], negativeBalance: [], notOncePerRequest: [], badlyClosed: [] });
  });

  it('does not stop for credits that another page of the crawl holds and then gives back', async () => {
    const account = await trawl.createAccount();
    // Two credits left. The first URL holds one until it fails, half a second on; the other two ask for theirs
    // meanwhile, and the last finds none left until the failed page's credit is back.
    const holder = randomUUID();
    expect((await trawl.ledger.reserve(account.accountId, holder, 10_000 - 2, 600_000)).ok).toBe(true);
    const started = await post(account.apiKey, '/batches', { urls: [`${pages.url}/hang-up`, `${pages.url}/a`, `${pages.url}/b`] });
    const done = await finished(account.apiKey, started.body.id);
    expect(done).toMatchObject({ status: 'completed', counts: { done: 2, failed: 1 }, credits: 2 });
    await trawl.ledger.refund(holder, 'test');
    expect(await balanceOf(account.accountId)).toBe(10_000 - 2);
    expect(await ledgerViolations(trawl.db.pool)).toMatchObject({ ledgerNotBalance: [], negativeBalance: [], notOncePerRequest: [], badlyClosed: [] });
  });

  it('sends signed webhooks for started, every stored page and completed, retrying a refused delivery', async () => {
    const account = await trawl.createAccount('developer');
    const secret = 'whsec-test-0123456789abcdef';
    const started = await post(account.apiKey, '/crawls', { url: `${site.hosts[0]}/`, max_depth: 1, sitemap: 'skip', webhook: { url: hookUrl, secret } });
    const done = await finished(account.apiKey, started.body.id);
    const mine = () => deliveries.filter((d) => JSON.parse(d.body).crawl_id === started.body.id);
    // Each event delivered twice (refused, then accepted): started, one per stored page, completed.
    const expected = 2 + done.counts.done;
    await pollUntil(() => new Set(mine().filter((d) => refusedOnce.has(d.id)).map((d) => d.id)).size === expected && mine().length >= 2 * expected, 'every event delivered after its retry', 30_000, 50);
    for (const d of mine()) {
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(d.signature) ?? [];
      expect(v1).toBe(createHmac('sha256', secret).update(`${t}.${d.body}`).digest('hex'));
      expect(JSON.parse(d.body)).toMatchObject({ id: d.id, type: d.type, crawl_id: started.body.id });
    }
    const byType = (type: string) => new Set(mine().filter((d) => d.type === type).map((d) => d.id)).size;
    expect([byType('started'), byType('page'), byType('completed')]).toEqual([1, done.counts.done, 1]);
    // The retry of an event carries the same id and body: the receiver de-duplicates on the id.
    const first = mine().find((d) => d.type === 'completed')!;
    expect(mine().filter((d) => d.id === first.id).every((d) => d.body === first.body)).toBe(true);
  });
});
