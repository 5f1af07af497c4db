/**
 * Firecrawl's scrape with `proxy: "auto"` (the default) on the standalone app as `npm start` runs it — its default
 * workers, a headful one among them — so the ladder is plain HTTP (1 credit), Chromium (10), the headed browser (50).
 * It climbs only as far as the credits it could reserve pay for: an account with less than 50 credits still gets a
 * plain page for 1, and a page still blocked on the highest rung it could pay for answers as a blocked page does;
 * an account with enough climbs to the headed browser. Nothing is ever charged twice or below zero.
 *
 * The guarded page is a challenge page whose script lets a browser through unless it says it is automated
 * (`navigator.webdriver`): plain HTTP never runs the script, headless Chromium is automated, the headed browser is not.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { WorkerRegistry } from '#queue';
import { ARTICLE, html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startHarness, type Harness } from '../support/harness.js';
import { pollUntil } from '../support/poll.js';

jest.setTimeout(120_000);

const GUARDED = html(
  `<form id="challenge-form" action="/guarded?__cf_chl_f_tk=abc" method="POST"></form>
   <p>Checking your browser before accessing the site.</p>
   <script>
     if (!navigator.webdriver) {
       document.title = 'Guarded article';
       document.body.innerHTML = '<main><article><h1>Guarded article</h1><p>The guarded article, shown to a browser that is not automated, with enough words in it to be content.</p></article></main>';
     }
   </script>`,
  'Just a moment...',
);

let trawl: Harness;
let site: FixtureServer;

beforeAll(async () => {
  site = await startFixtureServer({
    '/plain': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE),
    '/guarded': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(GUARDED),
  });
  // No STANDALONE_WORKERS: the default, as a fresh `npm start` hosts them.
  trawl = await startHarness({ HEADFUL_TIMEOUT_MS: '40000', RESIDENTIAL_PROXIES: '' });
  expect(trawl.config.STANDALONE_WORKERS).toEqual(['http', 'render', 'headful']);
  const registry = trawl.app.get(WorkerRegistry, { strict: false });
  await pollUntil(async () => (await registry.seen('worker-headful')) > 0, 'the worker-headful heartbeat');
});

afterAll(async () => {
  await trawl?.close();
  await site?.close();
});

/** An account left with exactly `left` credits, spent through the ledger as real usage would. */
async function accountWith(left: number) {
  const account = await trawl.createAccount();
  const { account: view } = await trawl.admin.report(account.accountId);
  const id = randomUUID();
  await trawl.ledger.reserve(account.accountId, id, view.balance - left, 60_000);
  await trawl.ledger.settle(id, view.balance - left);
  return account;
}

const balance = async (accountId: string) => (await trawl.admin.report(accountId)).account.balance;

async function scrape(apiKey: string, path: string, options: Record<string, unknown> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(`${trawl.baseUrl}/v2/scrape`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ url: `${site.url}${path}`, formats: ['markdown'], ...options }),
  });
  return { status: res.status, body: await res.json() };
}

/** What the call reserved and what it was charged (its scrape id is the reservation's id). */
async function reservation(callId: string) {
  const { rows } = await trawl.db.pool.query<{ amount: number; charged: number; status: string }>(
    'SELECT amount::int AS amount, charged::int AS charged, status FROM reservations WHERE id = $1',
    [callId],
  );
  return rows[0];
}

/** The account's request-log rows, oldest first, once `count` are written. */
async function logRows(accountId: string, count: number) {
  const read = () => trawl.db.pool.query(`SELECT status, credits, error_code FROM request_log WHERE account_id = $1 ORDER BY created_at`, [accountId]);
  await pollUntil(async () => (await read()).rowCount === count, `${count} request-log rows`);
  return (await read()).rows;
}

describe('Firecrawl scrape, proxy auto, with a headful worker alive', () => {
  it('an account with 20 credits gets a plain page for 1: it reserved the 10 its balance covered, not the ladder top of 50', async () => {
    const account = await accountWith(20);
    const res = await scrape(account.apiKey, '/plain');
    expect(res.status).toBe(200);
    expect(res.body.data.markdown).toContain('Deep sea trawling');
    expect(res.body.data.metadata).toMatchObject({ engine: 'http', proxyUsed: 'basic', creditsUsed: 1 });
    expect(await reservation(res.body.data.metadata.scrapeId)).toEqual({ amount: 10, charged: 1, status: 'settled' });
    expect(await balance(account.accountId)).toBe(19);
  });

  it('an account with 9 credits reserves 1 and still gets the plain page; with none left it is refused (402), nothing charged', async () => {
    const account = await accountWith(9);
    const res = await scrape(account.apiKey, '/plain');
    expect(res.status).toBe(200);
    expect(res.body.data.metadata).toMatchObject({ engine: 'http', creditsUsed: 1 });
    expect(await reservation(res.body.data.metadata.scrapeId)).toEqual({ amount: 1, charged: 1, status: 'settled' });
    expect(await balance(account.accountId)).toBe(8);

    const broke = await accountWith(0);
    const refused = await scrape(broke.apiKey, '/plain');
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({ success: false, error: 'This request needs 1 to 50 credits and the account has 0 left in this period' });
    expect(await balance(broke.accountId)).toBe(0);
  });

  it('with 20 credits a page blocked on plain HTTP and Chromium stops there: blocked, as at the top of a whole ladder, 0 credits', async () => {
    const account = await accountWith(20);
    const hits = site.hits.get('/guarded') ?? 0;
    const res = await scrape(account.apiKey, '/guarded');
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ success: false, code: 'UPSTREAM_BLOCKED' });
    expect(res.body.error).toMatch(/anti-bot page \(cloudflare challenge\)/);
    // Plain HTTP, then Chromium; the headed browser (50) was never tried.
    expect(site.hits.get('/guarded')).toBe(hits + 2);
    expect(await balance(account.accountId)).toBe(20);
    expect(await logRows(account.accountId, 1)).toEqual([{ status: 500, credits: 0, error_code: 'UPSTREAM_BLOCKED' }]);
  });

  it('an account with enough credits climbs to the headed browser on the same page, and is charged its 50 once', async () => {
    const account = await trawl.createAccount();
    const hits = site.hits.get('/guarded') ?? 0;
    const res = await scrape(account.apiKey, '/guarded');
    expect(res.status).toBe(200);
    expect(res.body.data.markdown).toContain('shown to a browser that is not automated');
    expect(res.body.data.metadata).toMatchObject({ engine: 'headful', proxyUsed: 'stealth', creditsUsed: 50 });
    expect(site.hits.get('/guarded')).toBe(hits + 3);
    expect(await reservation(res.body.data.metadata.scrapeId)).toEqual({ amount: 50, charged: 50, status: 'settled' });
    expect(await balance(account.accountId)).toBe(10_000 - 50);
    expect(await trawl.ledger.ledgerSum(account.accountId)).toBe(10_000 - 50);
  });

  it('a scrape with a pdf action climbs to the headed browser too, which prints it: the PDF of the page it let through', async () => {
    const account = await trawl.createAccount();
    const res = await scrape(account.apiKey, '/guarded', { actions: [{ type: 'pdf' }] });
    expect(res.status).toBe(200);
    expect(res.body.data.metadata).toMatchObject({ engine: 'headful', creditsUsed: 50 });
    expect(res.body.data.actions.pdfs).toHaveLength(1);
    const pdf = await fetch(res.body.data.actions.pdfs[0]);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
    expect(await balance(account.accountId)).toBe(10_000 - 50);
  });
});
