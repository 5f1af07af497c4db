/**
 * `/metrics` end to end: the standalone app (gateway + worker-http in one process) crawls fixture pages, and the
 * Prometheus text then shows the requests by route and status, their latency, job durations and outcomes by error
 * code per queue, credits charged, leases in use, the browser pool, and queue depths and waiting age read from Redis. On the main port it takes the admin token;
 * METRICS_PORT serves the same text without one.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer } from 'node:net';
import { Queue } from 'bullmq';
import { QueueName } from '#contracts';
import { ARTICLE, startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { key, startHarness, type Harness } from './support/harness.js';

const ADMIN = { authorization: 'Bearer test-admin-token-0123456789' };
let trawl: Harness;
let site: FixtureServer;
let metricsPort: number;

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as import('node:net').AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** The value of one sample, e.g. sample(text, 'trawl_http_requests_total', { endpoint: '/crawl', status: '200' }). */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    const m = /^([a-z_:]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = m[2].split(',');
    if (want.every((pair) => have.includes(pair))) return Number(m[3]);
  }
  return undefined;
}

beforeAll(async () => {
  site = await startFixtureServer({
    '/article': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE),
  });
  metricsPort = await freePort();
  trawl = await startHarness({
    // No headful worker (npm start hosts one by default): the queue-depth test needs a queue nothing consumes.
    STANDALONE_WORKERS: 'http,render',
    METRICS_PORT: String(metricsPort),
    JOB_ATTEMPTS: '1',
    // The first rendered page also waits for Chromium's cold start; on a loaded 2-core CI machine that alone
    // approached 2 s and failed the job before it had a context.
    CRAWL_TIMEOUT_MS: '15000',
    // Countries no test here asks for: the pools are only read by the proxy metrics.
    PROXIES: 'fr=http://127.0.0.1:9',
    RESIDENTIAL_PROXIES: 'de=http://127.0.0.1:9|http://u:secret-pw@127.0.0.1:10',
  });
});

afterAll(async () => {
  await trawl?.close();
  await site?.close();
});

describe('/metrics', () => {
  it('requires the admin token on the main port', async () => {
    expect((await trawl.get('/metrics')).status).toBe(401);
    expect((await trawl.get('/metrics', { authorization: 'Bearer not-the-admin-token-at-all' })).status).toBe(401);
    const account = await trawl.createAccount();
    expect((await trawl.get('/metrics', key(account.apiKey))).status).toBe(401); // an API key is not the admin token
  });

  it('counts requests by route and status, times them, and records job outcomes by error code', async () => {
    const account = await trawl.createAccount();
    const closed = await freePort(); // nothing listens there: the fetch fails
    const urls = [`${site.url}/article`, `http://127.0.0.1:${closed}/gone`].map(encodeURIComponent).join(',');
    const crawl = await trawl.get(`/crawl?urls=${urls}`, key(account.apiKey));
    expect(crawl.status).toBe(200);
    const failedCode = String(crawl.body.results[1].error).split(':')[0];
    expect((await trawl.get('/crawl?urls=https://site.example', { 'x-api-key': 'trawl_unknown' })).status).toBe(401);

    const response = await fetch(`${trawl.baseUrl}/metrics`, { headers: ADMIN });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(sample(text, 'trawl_http_requests_total', { endpoint: '/crawl', status: '200' })).toBe(1);
    expect(sample(text, 'trawl_http_requests_total', { endpoint: '/crawl', status: '401' })).toBe(1);
    expect(sample(text, 'trawl_http_requests_total', { endpoint: '/metrics', status: '401' })).toBe(3);
    expect(sample(text, 'trawl_http_request_duration_seconds_count', { endpoint: '/crawl' })).toBe(2);
    // The route pattern is the label, never the URL with its query string (keys, target URLs).
    expect(text).not.toContain('trawl_unknown');
    expect(text).not.toContain(site.url);

    const job = { queue: QueueName.http, job: 'crawl.page' };
    expect(sample(text, 'trawl_job_outcomes_total', { ...job, outcome: 'ok' })).toBe(1);
    expect(sample(text, 'trawl_job_outcomes_total', { ...job, outcome: failedCode })).toBe(1);
    expect(sample(text, 'trawl_job_duration_seconds_count', job)).toBe(2);
    expect(Number(/^trawl_extraction_duration_seconds_count (\S+)$/m.exec(text)?.[1])).toBe(1); // the page that was fetched
    expect(Number(/^trawl_process_resident_memory_bytes (\S+)$/m.exec(text)?.[1])).toBeGreaterThan(0);
    // One page succeeded: 1 credit; the call's lease is released.
    expect(sample(text, 'trawl_credits_charged_total', { endpoint: '/crawl' })).toBe(1);
    expect(Number(/^trawl_concurrency_leases_in_use (\S+)$/m.exec(text)?.[1])).toBe(0);
  });

  it('reports the browser pool: browsers alive, contexts, launches', async () => {
    const account = await trawl.createAccount();
    const crawl = await trawl.get(`/crawl?render_js=true&urls=${encodeURIComponent(`${site.url}/article`)}`, key(account.apiKey));
    expect(crawl.status).toBe(200);
    expect(crawl.body.results[0].status_code).toBe(200);
    const text = await (await fetch(`${trawl.baseUrl}/metrics`, { headers: ADMIN })).text();
    expect(sample(text, 'trawl_browser_pool_browsers', { kind: 'headless' })).toBe(1);
    expect(sample(text, 'trawl_browser_launches_total', { kind: 'headless' })).toBe(1);
    expect(sample(text, 'trawl_browser_crashes_total', { kind: 'headless' })).toBe(0);
    expect(sample(text, 'trawl_browser_pool_contexts', { kind: 'headless', state: 'active' })).toBe(0);
    expect(sample(text, 'trawl_job_outcomes_total', { queue: QueueName.render, job: 'crawl.page', outcome: 'ok' })).toBe(1);
    expect(sample(text, 'trawl_credits_charged_total', { endpoint: '/crawl' })).toBe(11);
  });

  it('reports the proxy pools: proxies configured per country and pool, residential health and resting per country', async () => {
    const text = await (await fetch(`${trawl.baseUrl}/metrics`, { headers: ADMIN })).text();
    expect(sample(text, 'trawl_proxies_configured', { country: 'fr', pool: 'datacenter' })).toBe(1);
    expect(sample(text, 'trawl_proxies_configured', { country: 'de', pool: 'residential' })).toBe(2);
    expect(sample(text, 'trawl_proxy_health', { country: 'de' })).toBe(1);
    expect(sample(text, 'trawl_proxy_resting', { country: 'de' })).toBe(0);
    expect(text).not.toContain('secret-pw');
  });

  it('reports queue depth and the age of the oldest waiting job per queue, read from Redis', async () => {
    // Nothing consumes trawl-headful in this standalone process (no headful worker): a job put there waits.
    const connection = trawl.redis.duplicate();
    const headful = new Queue(QueueName.headful, { connection, prefix: trawl.config.REDIS_PREFIX });
    await headful.add('crawl.page', { url: 'https://site.example' }, { timestamp: Date.now() - 5_000 });
    try {
      const text = await (await fetch(`${trawl.baseUrl}/metrics`, { headers: ADMIN })).text();
      expect(sample(text, 'trawl_queue_jobs', { queue: QueueName.headful, state: 'waiting' })).toBe(1);
      expect(sample(text, 'trawl_queue_oldest_waiting_seconds', { queue: QueueName.headful })).toBeGreaterThanOrEqual(5);
      expect(sample(text, 'trawl_queue_jobs', { queue: QueueName.http, state: 'waiting' })).toBe(0);
      expect(sample(text, 'trawl_queue_oldest_waiting_seconds', { queue: QueueName.http })).toBe(0);
    } finally {
      await headful.obliterate({ force: true });
      await headful.close();
      connection.disconnect();
    }
  });

  it('is served without authentication on METRICS_PORT, and nothing else is', async () => {
    const crawls = async () => sample(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text(), 'trawl_http_requests_total', { endpoint: '/crawl', status: '200' }) ?? 0;
    const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    // The same registry as the main port's: a call made now is counted here.
    const before = await crawls();
    const account = await trawl.createAccount();
    expect((await trawl.get(`/crawl?urls=${encodeURIComponent(`${site.url}/article`)}`, key(account.apiKey))).status).toBe(200);
    expect(await crawls()).toBe(before + 1);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/admin/accounts`)).status).toBe(404);
  });
});
