/**
 * The console's JSON API and its safety, over real HTTP against a real gateway: sign-in (key, one-time link,
 * operator), the session cookie's flags, CSRF on every mutation, sign-in rate limiting, a revoked key refused at
 * once (its console session too), the request log with a crawl's per-URL outcomes, and `GET /`.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { ConsoleRepository, CrawlsRepository } from '#db';
import { consoleLinkUrl, issueSignInLink, type CreatedAccount } from '#billing';
import { REPO_ROOT } from '../support/env.js';
import { ARTICLE, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startHarness, type Harness } from '../support/harness.js';
import { pollUntil } from '../support/poll.js';

let trawl: Harness;
let site: FixtureServer;
let account: CreatedAccount;
const ADMIN_TOKEN = 'test-admin-token-0123456789';

interface Reply {
  status: number;
  body: any;
  headers: Headers;
}

async function call(method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(`${trawl.baseUrl}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body), redirect: 'manual' });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, body, headers: response.headers };
}

/** Signs in; the cookie (name=value) and the session's CSRF token. */
async function signIn(body: Record<string, string>): Promise<{ cookie: string; csrf: string; setCookie: string }> {
  const res = await call('POST', '/console/session', { body });
  expect(res.status).toBe(200);
  const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('trawl_console='))!;
  return { cookie: setCookie.split(';')[0], csrf: res.body.csrfToken, setCookie };
}

beforeAll(async () => {
  site = await startFixtureServer({ '/a': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE) });
  trawl = await startHarness({ AUTH_CACHE_MS: '60000' });
  account = await trawl.createAccount();
});

afterAll(async () => {
  await trawl?.close();
  await site?.close();
});

describe('the console session', () => {
  it('is a HttpOnly, SameSite=Strict cookie, never carrying the key', async () => {
    const { setCookie } = await signIn({ apiKey: account.apiKey });
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Strict/);
    expect(setCookie).toMatch(/; Path=\//);
    expect(setCookie).not.toMatch(/Secure/); // plain http on loopback
    expect(setCookie).not.toContain(account.apiKey.slice(6));
  });

  it('refuses a wrong key, a cross-origin sign-in and a form post', async () => {
    expect((await call('POST', '/console/session', { body: { apiKey: 'trawl_nopenopenopenopenopenopenopenopenope' } })).status).toBe(401);
    expect((await call('POST', '/console/session', { body: { apiKey: account.apiKey }, headers: { origin: 'https://evil.example' } })).status).toBe(403);
    const form = await fetch(`${trawl.baseUrl}/console/session`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `apiKey=${account.apiKey}` });
    expect(form.status).toBe(400);
  });

  it('needs the CSRF token on every mutation made with the cookie, and a same-origin Origin', async () => {
    const { cookie, csrf } = await signIn({ apiKey: account.apiKey });
    expect((await call('GET', '/account', { headers: { cookie } })).status).toBe(200);
    const without = await call('POST', '/account/keys', { body: { name: 'x' }, headers: { cookie } });
    expect(without.status).toBe(403);
    expect(without.body.error.message).toMatch(/csrf/i);
    expect((await call('POST', '/account/keys', { body: { name: 'x' }, headers: { cookie, 'x-csrf-token': 'wrong' } })).status).toBe(403);
    expect((await call('POST', '/account/keys', { body: { name: 'x' }, headers: { cookie, 'x-csrf-token': csrf, origin: 'https://evil.example' } })).status).toBe(403);
    const ok = await call('POST', '/account/keys', { body: { name: 'csrf-ok' }, headers: { cookie, 'x-csrf-token': csrf, origin: trawl.baseUrl } });
    expect(ok.status).toBe(201);
    expect(ok.body.apiKey).toMatch(/^trawl_/);
    // Sign-out is a mutation too.
    expect((await call('DELETE', '/console/session', { headers: { cookie } })).status).toBe(403);
    expect((await call('DELETE', '/console/session', { headers: { cookie, 'x-csrf-token': csrf } })).status).toBe(204);
    expect((await call('GET', '/account', { headers: { cookie } })).status).toBe(401);
  });

  it('ends when the key it was opened with is revoked, and the key is refused at once by the API', async () => {
    const owner = await signIn({ apiKey: account.apiKey });
    const created = await call('POST', '/account/keys', { body: { name: 'short-lived' }, headers: { cookie: owner.cookie, 'x-csrf-token': owner.csrf } });
    const key: string = created.body.apiKey;
    const crawl = `/crawl?urls=${encodeURIComponent(`${site.url}/a`)}`;
    expect((await trawl.get(crawl, { 'x-api-key': key })).status).toBe(200); // cached by AUTH_CACHE_MS=60 s
    const other = await signIn({ apiKey: key });
    expect((await call('GET', '/account', { headers: { cookie: other.cookie } })).status).toBe(200);
    const revoked = await call('POST', `/account/keys/${created.body.id}/revoke`, { headers: { cookie: owner.cookie, 'x-csrf-token': owner.csrf } });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).not.toBeNull();
    expect((await trawl.get(crawl, { 'x-api-key': key })).status).toBe(401);
    expect((await call('GET', '/account', { headers: { cookie: other.cookie } })).status).toBe(401);
    expect((await call('GET', '/account', { headers: { cookie: owner.cookie } })).status).toBe(200);
    // Never again: the key list has its prefix only.
    const keys = await call('GET', '/account/keys', { headers: { 'x-api-key': account.apiKey } });
    expect(JSON.stringify(keys.body)).not.toContain(key);
    expect(keys.body.find((k: any) => k.id === created.body.id).name).toBe('short-lived');
  });

  it('opens once from a one-time link, which is stored hashed and expires', async () => {
    const repo = new ConsoleRepository(trawl.db);
    const { token } = await issueSignInLink(repo, account.accountId, new Date());
    expect(consoleLinkUrl('http://h:1', token)).toBe(`http://h:1/console/#link=${token}`);
    const stored = await trawl.db.pool.query('SELECT hash FROM console_links');
    expect(JSON.stringify(stored.rows)).not.toContain(token);
    const first = await call('POST', '/console/session', { body: { link: token } });
    expect(first.status).toBe(200);
    expect(first.body.account.id).toBe(account.accountId);
    expect((await call('POST', '/console/session', { body: { link: token } })).status).toBe(401);
    const old = await issueSignInLink(repo, account.accountId, new Date(Date.now() - 16 * 60_000));
    expect((await call('POST', '/console/session', { body: { link: old.token } })).status).toBe(401);
  });

  it('comes from the CLI: npm run trawl -- console:link prints a link that signs in once', async () => {
    const cli = (...args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        const env = { ...process.env, DATABASE_URL: trawl.config.DATABASE_URL, LOG_LEVEL: 'silent' };
        execFile(process.execPath, ['dist/apps/cli/src/main.js', ...args], { cwd: REPO_ROOT, env }, (error, stdout, stderr) =>
          resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
        );
      });
    const printed = await cli('console:link', '--id', account.accountId, '--url', trawl.baseUrl);
    expect(printed.code).toBe(0);
    expect(printed.stderr).toMatch(/works once, within 15 minutes/);
    const link = printed.stdout.trim();
    expect(link).toMatch(new RegExp(`^${trawl.baseUrl}/console/#link=[A-Za-z0-9_-]{43}$`));
    const token = link.split('#link=')[1];
    expect((await call('POST', '/console/session', { body: { link: token } })).status).toBe(200);
    expect((await call('POST', '/console/session', { body: { link: token } })).status).toBe(401);
    expect((await cli('console:link', '--id', '00000000-0000-0000-0000-000000000000')).code).toBe(2);
  });

  it('signs the operator in with ADMIN_TOKEN, for the admin API and the queue dashboard', async () => {
    const res = await call('POST', '/console/session', { body: { adminToken: ADMIN_TOKEN } });
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('admin');
    const cookies = res.headers.getSetCookie();
    const cookie = cookies.map((c) => c.split(';')[0]).join('; ');
    expect(cookies.find((c) => c.startsWith('trawl_admin_session='))).toMatch(/Path=\/admin\/queues; HttpOnly; SameSite=Strict/);
    expect((await call('GET', '/admin/accounts', { headers: { cookie } })).status).toBe(200);
    expect((await call('GET', '/admin/health', { headers: { cookie } })).body.workers['worker-http']).toBeGreaterThan(0);
    expect((await call('GET', '/admin/queues/api/queues', { headers: { cookie } })).status).toBe(200);
    // An operator session is no account session, and its mutations need the CSRF token too.
    expect((await call('GET', '/account', { headers: { cookie } })).status).toBe(401);
    expect((await call('POST', `/admin/accounts/${account.accountId}/grant`, { body: { credits: 5 }, headers: { cookie } })).status).toBe(403);
    const granted = await call('POST', `/admin/accounts/${account.accountId}/grant`, { body: { credits: 5 }, headers: { cookie, 'x-csrf-token': res.body.csrfToken } });
    expect(granted.status).toBe(200);
  });

  it('behind TLS: a Secure cookie; and failed sign-ins rate-limited per address, the right key included once at the limit', async () => {
    const limited = await startHarness({ PUBLIC_BASE_URL: 'https://trawl.example' });
    try {
      const target = await limited.createAccount();
      const attempt = (body: Record<string, string>) =>
        fetch(`${limited.baseUrl}/console/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const secure = await attempt({ apiKey: target.apiKey });
      expect(secure.headers.getSetCookie()[0]).toMatch(/; HttpOnly; SameSite=Strict; Max-Age=43200; Secure$/);
      for (let i = 0; i < 10; i++) expect((await attempt({ adminToken: `wrong-${i}` })).status).toBe(401);
      const refused = await attempt({ apiKey: target.apiKey });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(((await refused.json()) as any).error.code).toBe('RATE_LIMITED');
    } finally {
      await limited.close();
    }
  });
});

describe('the account API (by key, as scripts use it)', () => {
  it('logs each call with its request id and a crawl with its per-URL outcomes', async () => {
    const unreachable = 'http://127.0.0.1:1/closed';
    const urls = [`${site.url}/a`, unreachable].map(encodeURIComponent).join(',');
    const crawl = await fetch(`${trawl.baseUrl}/crawl?urls=${urls}`, { headers: { 'x-api-key': account.apiKey, 'x-request-id': 'my-trace-1' } });
    expect(crawl.status).toBe(200);
    const row = await pollUntil(async () => {
      const page = await call('GET', '/account/requests?endpoint=/crawl', { headers: { 'x-api-key': account.apiKey } });
      return page.body.requests.find((r: any) => r.requestId === 'my-trace-1');
    }, 'the crawl in the request log');
    expect(row).toMatchObject({ endpoint: '/crawl', status: 200, credits: 1 });
    const detail = await call('GET', `/account/requests/${row.id}`, { headers: { 'x-api-key': account.apiKey } });
    expect(detail.body.detail.urls).toEqual([
      { url: `${site.url}/a`, status_code: 200 },
      { url: unreachable, error: expect.stringMatching(/^CONNECTION_FAILED/) },
    ]);
    // A client's own non-uuid request id on a refused call is logged too (it used to fail the batch's insert).
    await fetch(`${trawl.baseUrl}/crawl?urls=notaurl`, { headers: { 'x-api-key': account.apiKey, 'x-request-id': 'my-trace-2' } });
    await pollUntil(async () => {
      const page = await call('GET', '/account/requests?outcome=error', { headers: { 'x-api-key': account.apiKey } });
      return page.body.requests.find((r: any) => r.requestId === 'my-trace-2' && r.status === 400);
    }, 'the refused call in the request log');
    const usage = await call('GET', '/account/usage?days=7', { headers: { 'x-api-key': account.apiKey } });
    expect(usage.body.days.find((d: any) => d.endpoint === '/crawl').credits).toBeGreaterThanOrEqual(1);
  });

  it("counts a crawl's charged pages in usage, under its endpoint, beside the calls", async () => {
    const own = await trawl.createAccount();
    const headers = { 'x-api-key': own.apiKey };
    const started = await call('POST', '/batches', { body: { urls: [`${site.url}/a`, 'http://127.0.0.1:1/closed'] }, headers });
    expect(started.status).toBe(201);
    await pollUntil(async () => (await call('GET', `/batches/${started.body.id}`, { headers })).body.status === 'completed', 'the batch to complete');
    const usage = await call('GET', '/account/usage?days=1', { headers });
    // One call started it; the page stored costs 1, the URL that failed nothing (and is not an error of a call).
    expect(usage.body.days).toEqual([expect.objectContaining({ endpoint: '/batches', calls: 1, errors: 0, credits: 1 })]);
    const overview = await call('GET', '/account', { headers });
    expect(overview.body.thisPeriod).toEqual({ calls: 1, credits: 1 });
    const admin = await call('GET', '/admin/usage?days=1', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(admin.body.accounts.find((a: any) => a.accountId === own.accountId)).toMatchObject({ calls: 1, credits: 1 });
  });

  it('pages the log with a cursor and validates its parameters', async () => {
    for (let i = 0; i < 3; i++) await trawl.get(`/crawl?urls=${encodeURIComponent(`${site.url}/a`)}`, { 'x-api-key': account.apiKey });
    await pollUntil(async () => (await call('GET', '/account/requests?limit=200', { headers: { 'x-api-key': account.apiKey } })).body.requests.length >= 5, 'five rows');
    const all = (await call('GET', '/account/requests?limit=200', { headers: { 'x-api-key': account.apiKey } })).body.requests.map((r: any) => r.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await call('GET', `/account/requests?limit=2${cursor ? `&before=${cursor}` : ''}`, { headers: { 'x-api-key': account.apiKey } });
      seen.push(...page.body.requests.map((r: any) => r.id));
      cursor = page.body.cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(all);
    const bad = await call('GET', '/account/requests?limit=500', { headers: { 'x-api-key': account.apiKey } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/limit/);
    expect((await call('GET', '/account/requests/not-an-id', { headers: { 'x-api-key': account.apiKey } })).status).toBe(404);
  });

  it('lists crawls in progress with their counts, never their options', async () => {
    const crawls = new CrawlsRepository(trawl.db);
    const id = randomUUID();
    await crawls.create({ id, accountId: account.accountId, kind: 'site', url: `${site.url}/a`, options: { webhook: { secret: 'hush-hush' } }, discovered: 7, expiresAt: new Date(Date.now() + 3_600_000) });
    await crawls.start(id);
    await crawls.addCounts(id, { failed: 1, skipped: 2 });
    const res = await call('GET', '/account/crawls', { headers: { 'x-api-key': account.apiKey } });
    expect(res.body).toEqual([expect.objectContaining({ id, kind: 'site', status: 'running', url: `${site.url}/a`, discovered: 7, failed: 1, skipped: 2 })]);
    expect(JSON.stringify(res.body)).not.toContain('hush-hush');
    await crawls.finish(id, 'completed', null, 60_000);
    expect((await call('GET', '/account/crawls', { headers: { 'x-api-key': account.apiKey } })).body).toEqual([]);
  });

  it('keeps other accounts out', async () => {
    const other = await trawl.createAccount();
    const keys = await call('GET', '/account/keys', { headers: { 'x-api-key': other.apiKey } });
    const mine = await call('GET', '/account/keys', { headers: { 'x-api-key': account.apiKey } });
    const revoke = await call('POST', `/account/keys/${mine.body[0].id}/revoke`, { headers: { 'x-api-key': other.apiKey } });
    expect(revoke.status).toBe(404);
    expect(keys.body.map((k: any) => k.id)).not.toContain(mine.body[0].id);
  });
});

describe('GET / and the console page', () => {
  it('sends a browser to the console and gives a client a JSON index of the API', async () => {
    const browser = await call('GET', '/', { headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(browser.status).toBe(302);
    expect(browser.headers.get('location')).toBe('/console/');
    const client = await call('GET', '/');
    expect(client.status).toBe(200);
    expect(client.body.endpoints.map((e: any) => e.path)).toEqual(expect.arrayContaining(['/crawl', '/search', '/serp-search', '/serp-maps', '/headful-browser']));
    expect(client.body.openapi).toBe('/openapi.json');
  });

  it('documents its JSON endpoints in /openapi.json, tagged console, with parameters from the same schemas', async () => {
    const doc = (await call('GET', '/openapi.json')).body;
    for (const path of ['/console/session', '/account', '/account/usage', '/account/requests', '/account/requests/{id}', '/account/crawls', '/account/keys', '/account/keys/{id}/revoke', '/admin/usage', '/admin/health']) {
      expect({ path, tagged: Object.values(doc.paths[path] ?? {}).every((op: any) => op.tags?.includes('console')) }).toEqual({ path, tagged: true });
    }
    const limit = doc.paths['/account/requests'].get.parameters.find((p: any) => p.name === 'limit');
    expect(limit.schema).toMatchObject({ minimum: 1, maximum: 200, default: 50 });
    expect((await call('GET', '/docs')).body).toContain('/account/requests');
  });

  it('serves the page with a strict CSP and no caching, the hashed assets for a year', async () => {
    const page = await fetch(`${trawl.baseUrl}/console/requests`);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const html = await page.text();
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)![1];
    const asset = await fetch(`${trawl.baseUrl}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(html).not.toMatch(/<script>(?!<\/script>)|https?:\/\/(?!127)/); // nothing inline, nothing from elsewhere
    expect((await fetch(`${trawl.baseUrl}/console/assets/nope.js`)).status).toBe(404);
  });
});
