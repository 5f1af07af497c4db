/**
 * `/openapi.json` against the running gateway: served without a key, parameters generated from the same schemas
 * REST validates with, and real responses of /crawl and /serp-search (successes and errors) valid against it.
 * The serp-search success case needs ../shared/corpus (skipped with a message when absent).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { CORPUS_DIR } from './support/env.js';
import { ARTICLE, startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { key, startHarness, type Harness } from './support/harness.js';

const GOOGLE = `${CORPUS_DIR}/serp/google/zlurad-serp-parser/desktop-2023/html`;
const hasCorpus = existsSync(GOOGLE);
if (!hasCorpus) console.warn(`openapi e2e: the serp-search success case is skipped, ${GOOGLE} is absent`);

let trawl: Harness;
let site: FixtureServer;
let upstream: FixtureServer;
let doc: any;
let ajv: Ajv2020;

beforeAll(async () => {
  const coffee = hasCorpus ? gunzipSync(readFileSync(`${GOOGLE}/coffee.html.gz`)).toString('utf8') : '';
  const captcha = hasCorpus ? gunzipSync(readFileSync(`${GOOGLE}/recaptcha.html.gz`)).toString('utf8') : '';
  upstream = await startFixtureServer({
    '/search': (req, res) => {
      const q = new URL(req.url!, 'http://x').searchParams.get('q');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(q === 'always blocked' ? captcha : coffee);
    },
  });
  site = await startFixtureServer({ '/a': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE) });
  trawl = await startHarness({ GOOGLE_BASE_URL: upstream.url, GOOGLE_TRANSPORT: 'http', SERP_PROXY_ATTEMPTS: '1' });
  const res = await trawl.get('/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema(doc, 'openapi.json');
});

afterAll(async () => {
  await trawl?.close();
  await site?.close();
  await upstream?.close();
});

const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/** Validates a real response against the document's schema for that path and status. */
function expectValid(path: string, status: number, body: unknown) {
  const response = doc.paths[path].get.responses[String(status)];
  expect(response).toBeDefined();
  const validate = ajv.compile({ $ref: `openapi.json#/${pointer('paths', path, 'get', 'responses', String(status), 'content', 'application/json', 'schema')}` });
  const valid = validate(body);
  if (!valid) throw new Error(`${path} ${status} does not match the OpenAPI document: ${ajv.errorsText(validate.errors)}`);
}

describe('GET /openapi.json', () => {
  it('is OpenAPI 3.1 with both key headers as security schemes, served without a key', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes).toEqual({
      apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
      bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    });
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/crawl', '/serp-search', '/mcp']));
  });

  it('takes query parameters from the schema shapes, with defaults, enums and ranges', () => {
    const params = (path: string) => Object.fromEntries(doc.paths[path].get.parameters.map((p: any) => [p.name, p]));
    const crawl = params('/crawl');
    expect(Object.keys(crawl)).toEqual(['urls', 'render_js', 'geolocation', 'raw_html', 'enhanced_html', 'page_text', 'markdown', 'screenshot', 'screenshot_full_page']);
    expect(crawl.urls).toMatchObject({ in: 'query', required: true, style: 'form', explode: false, schema: { type: 'array', maxItems: 20 } });
    expect(crawl.enhanced_html).toMatchObject({ required: false, schema: { type: 'boolean', default: true } });
    const serp = params('/serp-search');
    expect(serp.q.required).toBe(true);
    expect(serp.gl.schema.default).toBe('us');
    expect(serp.hl.schema.default).toBe('en');
    expect(serp.num.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 10 });
    expect(serp.type.schema.enum).toEqual(['search', 'news', 'images', 'places', 'shopping']);
    expect(serp.tbs.schema.enum).toEqual(['qdr:h', 'qdr:d', 'qdr:w', 'qdr:m', 'qdr:y']);
    for (const p of [...Object.values(crawl), ...Object.values(serp)] as any[]) expect(p.description).toBeTruthy();
    expect(Object.keys(doc.paths['/serp-search'].get.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '402', '429', '502']));
  });

  it('has a readable reference page at /docs, rendered from the same document', async () => {
    const res = await fetch(`${trawl.baseUrl}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const page = await res.text();
    expect(page).toContain('GET</span> /crawl');
    expect(page).toContain('<code>screenshot_full_page</code>');
    expect(page).not.toContain('<script');
  });

  it('real /crawl responses validate: success with every format, a failed URL, and errors', async () => {
    const account = await trawl.createAccount();
    const urls = encodeURIComponent(`${site.url}/a,http://127.0.0.1:1/refused`);
    const ok = await trawl.get(`/crawl?urls=${urls}&raw_html=true&page_text=true`, key(account.apiKey));
    expect(ok.status).toBe(200);
    expect(ok.body.results[1].error).toBeDefined();
    expectValid('/crawl', 200, ok.body);
    const bad = await trawl.get('/crawl?urls=nope', key(account.apiKey));
    expect(bad.status).toBe(400);
    expectValid('/crawl', 400, bad.body);
    const anonymous = await trawl.get(`/crawl?urls=${urls}`);
    expect(anonymous.status).toBe(401);
    expectValid('/crawl', 401, anonymous.body);
  });

  it('a response with an undocumented field does not validate (the check has teeth)', () => {
    expect(() => expectValid('/crawl', 200, { results: [{ url: 'https://x.example/', surprise: 1 }], credits: 0, successful_pages: 0 })).toThrow(/surprise|additional/);
  });

  (hasCorpus ? it : it.skip)('real /serp-search responses validate: results page, block page, 402', async () => {
    const account = await trawl.createAccount();
    const ok = await trawl.get('/serp-search?q=coffee&tbs=qdr:w', key(account.apiKey));
    expect(ok.status).toBe(200);
    expectValid('/serp-search', 200, ok.body);
    const blocked = await trawl.get(`/serp-search?q=${encodeURIComponent('always blocked')}`, key(account.apiKey));
    expect(blocked.status).toBe(502);
    expectValid('/serp-search', 502, blocked.body);
    await trawl.db.pool.query('UPDATE accounts SET balance = 0 WHERE id = $1', [account.accountId]);
    const broke = await trawl.get('/serp-search?q=coffee', key(account.apiKey));
    expect(broke.status).toBe(402);
    expectValid('/serp-search', 402, broke.body);
  });
});
