/**
 * `/openapi.json` against the running gateway: served without a key, parameters generated from the same schemas
 * REST validates with, and real responses of every endpoint (successes and errors) valid against it: /search against a
 * fixture Bing, /serp-maps against a Nominatim stand-in, /headful-browser through headed Chromium on the worker's own
 * Xvfb behind a loopback "residential" proxy; a site crawl, a batch and /map (JSON bodies, path parameters, 201, 404,
 * 409, the NDJSON export) against the fixture site. The serp-search success case needs ../shared/corpus (skipped with
 * a message when absent).
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { WorkerRegistry } from '#queue';
import { bingPage, BING_CHALLENGE } from '#bench/support/bing-fixture.js';
import { CORPUS_DIR } from './support/env.js';
import { corpusPresent } from './support/requires.js';
import { ARTICLE, startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { key, startHarness, type Harness } from './support/harness.js';
import { pollUntil } from './support/poll.js';
import { startRecordingProxy, type RecordingProxy } from './support/recording-proxy.js';

jest.setTimeout(90_000);

const GOOGLE = `${CORPUS_DIR}/serp/google/zlurad-serp-parser/desktop-2023/html`;
const hasCorpus = corpusPresent(GOOGLE, 'the openapi e2e serp-search success case');

let trawl: Harness;
let site: FixtureServer;
let upstream: FixtureServer;
let bing: FixtureServer;
let nominatim: FixtureServer;
let residential: RecordingProxy;
let doc: any;

/** A Nominatim place (MAPS_PROVIDER=osm), as the /serp-maps e2e test serves it. */
const CAFE = {
  place_id: 98765,
  osm_type: 'node',
  osm_id: 123,
  lat: '40.7451',
  lon: '-74.0081',
  category: 'amenity',
  type: 'cafe',
  name: 'Chelsea Beans',
  display_name: 'Chelsea Beans, 401, West 14th Street, Manhattan, New York, 10014, United States',
  address: { amenity: 'Chelsea Beans', house_number: '401', road: 'West 14th Street', city: 'New York', postcode: '10014', country: 'United States', country_code: 'us' },
  extratags: { opening_hours: 'Mo-Fr 08:00-18:00; Sa 09:00-14:00', phone: '+1 212 555 0100', website: 'chelseabeans.example' },
  namedetails: { name: 'Chelsea Beans' },
};
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
  site = await startFixtureServer({
    '/a': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE),
    '/diagram.png': (_q, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(64)),
  });
  bing = await startFixtureServer({
    '/search': (req, res) => {
      const params = new URL(req.url!, 'http://x').searchParams;
      const q = params.get('q') ?? '';
      const first = Number(params.get('first') ?? 1);
      if (q === 'blocked coffee' || first > 1) return void res.writeHead(200, { 'content-type': 'text/html' }).end(BING_CHALLENGE);
      const results = [
        { title: 'Trawling explained', link: `${site.url}/a`, snippet: 'Trawling is a method of fishing.' },
        { title: 'Trawling net diagram', link: `${site.url}/diagram.png`, snippet: 'A trawling net, as an image.' },
      ];
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(bingPage({ query: q, offset: 0, hasNext: true, blocks: true, results }));
    },
  });
  const json = (res: ServerResponse, body: unknown) => void res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
  nominatim = await startFixtureServer({
    '/search': (_q, res) => json(res, [CAFE, { ...CAFE, osm_type: 'way', osm_id: 456, name: 'Corner Bakery', extratags: {}, namedetails: {} }]),
    '/lookup': (req, res) => json(res, new URL(req.url!, 'http://x').searchParams.get('osm_ids') === 'N123' ? [CAFE] : []),
  });
  residential = await startRecordingProxy();
  trawl = await startHarness({
    GOOGLE_BASE_URL: upstream.url,
    GOOGLE_TRANSPORT: 'http',
    SERP_PROXY_ATTEMPTS: '1',
    STANDALONE_WORKERS: 'http,render,headful',
    SEARCH_ENGINE: 'bing',
    BING_BASE_URL: bing.url,
    SEARCH_CRAWL_TIMEOUT_MS: '5000',
    SEARCH_CRAWL_DEADLINE_MS: '8000',
    MAPS_PROVIDER: 'osm',
    NOMINATIM_BASE_URL: nominatim.url,
    NOMINATIM_USER_AGENT: 'TrawlTest/1.0 (ops@example.org)',
    NOMINATIM_MIN_INTERVAL_MS: '0',
    RESIDENTIAL_PROXIES: `us=${residential.url}`,
    HEADFUL_ATTEMPTS: '1',
    HEADFUL_TIMEOUT_MS: '40000',
    SCREENSHOT_SIGNING_KEY: 'test-screenshot-signing-key-0123456789abcdef',
  });
  const registry = trawl.app.get(WorkerRegistry, { strict: false });
  await pollUntil(async () => (await registry.seen('worker-headful')) > 0, 'the worker-headful heartbeat');
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
  await Promise.all([bing?.close(), nominatim?.close(), residential?.close()]);
});

const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/** Validates a real response against the document's schema for that path, method and status. */
function expectValid(path: string, status: number, body: unknown, method = 'get', mediaType = 'application/json') {
  const response = doc.paths[path][method].responses[String(status)];
  expect(response).toBeDefined();
  const validate = ajv.compile({ $ref: `openapi.json#/${pointer('paths', path, method, 'responses', String(status), 'content', mediaType, 'schema')}` });
  const valid = validate(body);
  if (!valid) throw new Error(`${path} ${status} does not match the OpenAPI document: ${ajv.errorsText(validate.errors)}`);
}

describe('GET /openapi.json', () => {
  it('is OpenAPI 3.1 with both key headers as security schemes, served without a key', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes).toEqual({
      apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
      bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      consoleSession: expect.objectContaining({ type: 'apiKey', in: 'cookie', name: 'trawl_console' }),
    });
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/search', '/serp-search', '/serp-maps', '/crawl', '/headful-browser', '/mcp']));
  });

  it('takes query parameters from the schema shapes, with defaults, enums and ranges', () => {
    const params = (path: string) => Object.fromEntries(doc.paths[path].get.parameters.map((p: any) => [p.name, p]));
    const crawl = params('/crawl');
    expect(Object.keys(crawl)).toEqual([
      'urls', 'render_js', 'geolocation', 'raw_html', 'enhanced_html', 'page_text', 'markdown', 'screenshot', 'screenshot_full_page',
      'query', 'chunks_per_page', 'max_tokens', 'summary', 'json_schema', 'json_prompt', 'max_age',
    ]);
    expect(crawl.max_age).toMatchObject({ required: false, schema: { type: 'integer', minimum: 0, maximum: 172_800 } });
    expect(crawl.chunks_per_page.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 50, default: 5 });
    expect(crawl.max_tokens.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 1_000_000, default: 4000 });
    expect(crawl.json_schema.schema).toEqual({ type: 'string', contentMediaType: 'application/json', maxLength: 16_384 });
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
    expect(Object.keys(doc.paths['/serp-search'].get.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '402', '429', '500']));
    const search = params('/search');
    expect(search.query.required).toBe(true);
    expect(search.max_pages.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 10, default: 1 });
    expect(search.device.schema).toMatchObject({ enum: ['desktop', 'mobile', 'tablet'], default: 'desktop' });
    expect(search.auto_crawling.schema).toMatchObject({ type: 'boolean', default: false });
    expect(search.chunks_per_page.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 50 });
    const maps = params('/serp-maps');
    expect(Object.keys(maps)).toEqual(['q', 'hl', 'll', 'placeId', 'cid']);
    expect(maps.q.required).toBe(true);
    const headful = params('/headful-browser');
    expect(Object.keys(headful)).toEqual(['urls', 'country', 'output_format', 'screenshot']);
    expect(headful.urls).toMatchObject({ required: true, schema: { type: 'array', maxItems: 10 } });
    expect(headful.output_format.schema).toMatchObject({ enum: ['markdown', 'enhanced_html', 'raw_html', 'page_text'], default: 'markdown' });
    for (const p of [...Object.values(search), ...Object.values(maps), ...Object.values(headful)] as any[]) expect(p.description).toBeTruthy();
    expect(Object.keys(doc.paths['/search'].get.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '429', '500']));
    expect(Object.keys(doc.paths['/serp-maps'].get.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '429', '500']));
    // The contract lists no 404 for /serp-maps: a lookup of no place is a 200 with no places.
    expect(Object.keys(doc.paths['/serp-maps'].get.responses)).not.toContain('404');
    expect(doc.paths['/headful-browser'].get.responses['500'].description).toMatch(/HEADFUL_UNAVAILABLE/);
  });

  it('documents JSON request bodies and path parameters: crawl jobs and /map', () => {
    expect(Object.keys(doc.paths['/crawls'])).toEqual(['post', 'get']);
    expect(Object.keys(doc.paths['/crawls/{id}'])).toEqual(['get', 'delete']);
    const start = doc.paths['/crawls'].post;
    expect(start.parameters).toEqual([]);
    expect(start.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/StartCrawlRequest' });
    expect(Object.keys(start.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '429']));
    const body = doc.components.schemas.StartCrawlRequest;
    expect(body.required).toEqual(['url']);
    expect(body.additionalProperties).toBe(false);
    expect(body.properties.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 10_000, default: 100 });
    expect(body.properties.sitemap).toMatchObject({ enum: ['include', 'only', 'skip'], default: 'include' });
    for (const field of Object.values(body.properties) as any[]) expect(field.description).toBeTruthy();
    expect(doc.components.schemas.StartBatchRequest.properties.urls).toMatchObject({ type: 'array', maxItems: 10_000 });
    expect(doc.components.schemas.MapRequest.properties.limit).toMatchObject({ maximum: 100_000, default: 5000 });
    const status = doc.paths['/crawls/{id}'].get;
    expect(status.parameters.map((p: any) => [p.name, p.in, p.required])).toEqual([['id', 'path', true], ['cursor', 'query', false], ['limit', 'query', false]]);
    expect(Object.keys(status.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '404']));
    expect(Object.keys(doc.paths['/crawls/{id}'].delete.responses)).toEqual(expect.arrayContaining(['200', '404', '409']));
    expect(Object.keys(doc.paths['/crawls/{id}/export'].get.responses['200'].content)).toEqual(['application/x-ndjson']);
    expect(Object.keys(doc.paths['/map'].post.responses)).toEqual(expect.arrayContaining(['200', '400', '429', '500']));
  });

  it('has a readable reference page at /docs, rendered from the same document', async () => {
    const res = await fetch(`${trawl.baseUrl}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const page = await res.text();
    expect(page).toContain('GET</span> /crawl');
    expect(page).toContain('<code>screenshot_full_page</code>');
    expect(page).toContain('POST</span> /crawls');
    expect(page).toMatch(/<h3>JSON body<\/h3><table>.*<code>include_paths<\/code>/);
    expect(page).toMatch(/<h3>Path parameters<\/h3><table>.*<code>id<\/code>/);
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

  it('real crawl job and /map responses validate: start, status by cursor, errors, export, cancel; 400, 404, 409', async () => {
    const account = await trawl.createAccount();
    const other = await trawl.createAccount();
    const send = async (method: string, path: string, body?: unknown, apiKey = account.apiKey) => {
      const res = await fetch(`${trawl.baseUrl}${path}`, {
        method,
        headers: { ...key(apiKey), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, text, body: res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : undefined };
    };
    const started = await send('POST', '/crawls', { url: `${site.url}/a`, sitemap: 'skip', limit: 3, raw_html: true, page_text: true });
    expect(started.status).toBe(201);
    expectValid('/crawls', 201, started.body, 'post');
    const bad = await send('POST', '/crawls', { url: `${site.url}/a`, limit: 0 });
    expect(bad.status).toBe(400);
    expectValid('/crawls', 400, bad.body, 'post');
    const list = await send('GET', '/crawls');
    expect(list.status).toBe(200);
    expectValid('/crawls', 200, list.body);
    const id = started.body.id;
    const done = await pollUntil(async () => {
      const read = await send('GET', `/crawls/${id}`);
      return read.body.status === 'completed' ? read.body : null;
    }, 'the crawl to complete', 30_000, 100);
    expect(done.pages[0]).toMatchObject({ raw_html: expect.any(String), page_text: expect.any(String), links: expect.any(Array), metadata: expect.any(Object) });
    expectValid('/crawls/{id}', 200, done);
    const paged = await send('GET', `/crawls/${id}?limit=1`);
    expect(paged.body.next_cursor).toEqual(expect.any(String));
    expectValid('/crawls/{id}', 200, paged.body);
    expectValid('/crawls/{id}', 400, (await send('GET', `/crawls/${id}?limit=0`)).body);
    expectValid('/crawls/{id}/errors', 200, (await send('GET', `/crawls/${id}/errors`)).body);
    const exported = await send('GET', `/crawls/${id}/export`);
    const lines = exported.text.split('\n').filter(Boolean);
    expect(lines).toHaveLength(done.counts.done);
    for (const line of lines) expectValid('/crawls/{id}/export', 200, JSON.parse(line), 'get', 'application/x-ndjson');
    const finished = await send('DELETE', `/crawls/${id}`);
    expect(finished.status).toBe(409);
    expectValid('/crawls/{id}', 409, finished.body, 'delete');
    const foreign = await send('GET', `/crawls/${id}`, undefined, other.apiKey);
    expect(foreign.status).toBe(404);
    expectValid('/crawls/{id}', 404, foreign.body);

    // A batch held open by its delay between two pages of one host, cancelled while it runs.
    const batch = await send('POST', '/batches', { urls: [`${site.url}/a`, `${site.url}/a?again=1`], delay_ms: 60_000 });
    expect(batch.status).toBe(201);
    expectValid('/batches', 201, batch.body, 'post');
    const cancelled = await send('DELETE', `/crawls/${batch.body.id}`);
    expect(cancelled.status).toBe(200);
    expectValid('/crawls/{id}', 200, cancelled.body, 'delete');

    const map = await send('POST', '/map', { url: `${site.url}/a`, search: 'trawling', use_search: true });
    expect(map.status).toBe(200);
    expect(map.body.links[0]).toMatchObject({ url: `${site.url}/a`, title: expect.any(String) });
    expectValid('/map', 200, map.body, 'post');
    const badMap = await send('POST', '/map', { url: `${site.url}/a`, limit: 'all' });
    expect(badMap.status).toBe(400);
    expectValid('/map', 400, badMap.body, 'post');
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
    expect(blocked.status).toBe(500);
    expectValid('/serp-search', 500, blocked.body);
    await trawl.db.pool.query('UPDATE accounts SET balance = 0 WHERE id = $1', [account.accountId]);
    const broke = await trawl.get('/serp-search?q=coffee', key(account.apiKey));
    expect(broke.status).toBe(402);
    expectValid('/serp-search', 402, broke.body);
  });

  it('real /search responses validate: every block and format with auto-crawled results, page_errors, 400, 500', async () => {
    const account = await trawl.createAccount();
    const full = await trawl.get('/search?query=trawling%20nets&max_pages=2&auto_crawling=true&raw_html=true&enhanced_html=true&markdown=true&page_text=true', key(account.apiKey));
    expect(full.status).toBe(200);
    const [article, image] = full.body.pages['1'].search_results;
    expect(article.page_content.page_markdown).toBeDefined();
    expect(article.metadata.title).toBeDefined();
    expect(image.error).toBeDefined();
    expect(full.body.page_errors?.['2']).toMatch(/^UPSTREAM_BLOCKED/);
    expect(Object.keys(full.body.pages['1'])).toEqual(
      expect.arrayContaining(['total_results', 'search_results', 'related_queries', 'ai_answer', 'questions_answers', 'sidebar', 'direct_answer', 'page_content']),
    );
    expectValid('/search', 200, full.body);
    const bare = await trawl.get('/search?query=trawling&ai_answer=false&sidebar=false&related_queries=false', key(account.apiKey));
    expect(bare.status).toBe(200);
    expectValid('/search', 200, bare.body);
    const surprise = structuredClone(bare.body);
    surprise.pages['1'].search_results[0].surprise = 1;
    expect(() => expectValid('/search', 200, surprise)).toThrow(/surprise|additional/);
    const bad = await trawl.get('/search?max_pages=11&query=x', key(account.apiKey));
    expect(bad.status).toBe(400);
    expectValid('/search', 400, bad.body);
    const blocked = await trawl.get('/search?query=blocked%20coffee', key(account.apiKey));
    expect(blocked.status).toBe(500);
    expectValid('/search', 500, blocked.body);
    // No PROXIES here: random goes direct and says so; a named country is PROXY_UNAVAILABLE.
    const random = await trawl.get('/search?query=trawling&geolocation=random', key(account.apiKey));
    expect(random.body.egress).toEqual({ via: 'direct' });
    expectValid('/search', 200, random.body);
    const unserved = await trawl.get('/search?query=trawling&geolocation=de', key(account.apiKey));
    expect(unserved.status).toBe(500);
    expectValid('/search', 500, unserved.body);
  });

  it('real /serp-maps responses validate: a search, a lookup, a lookup of no place, 400', async () => {
    const account = await trawl.createAccount();
    const search = await trawl.get('/serp-maps?q=coffee&ll=%4040.7455,-74.0083,14z&hl=de', key(account.apiKey));
    expect(search.status).toBe(200);
    expect(search.body.serp_maps_results[0].openingHours).toBeDefined();
    expectValid('/serp-maps', 200, search.body);
    const lookup = await trawl.get('/serp-maps?q=Chelsea%20Beans&placeId=N123', key(account.apiKey));
    expect(lookup.status).toBe(200);
    expectValid('/serp-maps', 200, lookup.body);
    const missing = await trawl.get('/serp-maps?q=x&placeId=N999', key(account.apiKey));
    expect(missing.status).toBe(200);
    expect(missing.body.serp_maps_results).toEqual([]);
    expectValid('/serp-maps', 200, missing.body);
    const bad = await trawl.get('/serp-maps?q=x&ll=nowhere', key(account.apiKey));
    expect(bad.status).toBe(400);
    expectValid('/serp-maps', 400, bad.body);
  });

  it('real /headful-browser responses validate: a page with a screenshot link, a failed URL, a country not served', async () => {
    const account = await trawl.createAccount();
    const urls = [`${site.url}/a`, 'http://169.254.169.254/latest/meta-data/'].map(encodeURIComponent).join(',');
    const ok = await trawl.get(`/headful-browser?urls=${urls}&screenshot=true`, key(account.apiKey));
    expect(ok.status).toBe(200);
    expect(ok.body.data[0].markdown).toBeDefined();
    expect(ok.body.data[0].screenshot).toMatch(/^http/);
    expect(ok.body.data[1].error).toBeDefined();
    expectValid('/headful-browser', 200, ok.body);
    expect(ok.body.data[0].egress).toEqual({ via: 'proxy', country: 'us' });
    const unserved = await trawl.get(`/headful-browser?urls=${urls}&country=de`, key(account.apiKey));
    expect(unserved.status).toBe(500);
    expect(unserved.body.error.code).toBe('PROXY_UNAVAILABLE');
    expectValid('/headful-browser', 500, unserved.body);
    const bad = await trawl.get(`/headful-browser?urls=${urls}&country=xx`, key(account.apiKey));
    expect(bad.status).toBe(400);
    expectValid('/headful-browser', 400, bad.body);
  });
});

describe('the Firecrawl-compatible routes in /openapi.json', () => {
  const send = async (method: string, path: string, body?: unknown, apiKey?: string) => {
    const res = await fetch(`${trawl.baseUrl}${path}`, {
      method,
      headers: { ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  it('documents /v1 and /v2: bodies from the #firecrawl schemas, every field described, answers, Firecrawl\'s error shape', async () => {
    for (const version of ['v1', 'v2']) {
      expect(Object.keys(doc.paths[`/${version}/crawl/{id}`])).toEqual(['get', 'delete']);
      for (const path of ['/scrape', '/crawl', '/batch/scrape', '/map', '/search']) {
        const op = doc.paths[`/${version}${path}`].post;
        expect(op.tags).toEqual(['firecrawl']);
        expect(op.responses['400'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/FirecrawlError' });
        expect(op.responses['401'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/FirecrawlError' });
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '402', '429', '500']));
      }
    }
    expect(Object.keys(doc.paths['/v1/crawl/{id}/errors'])).toEqual(['get', 'delete']);
    expect(doc.components.schemas.FirecrawlError).toMatchObject({ required: ['success', 'error'], properties: { success: { const: false } } });
    const scrape = doc.components.schemas.FirecrawlV2ScrapeRequest;
    expect(scrape.required).toEqual(['url']);
    expect(scrape.additionalProperties).toBe(false);
    expect(scrape.properties.waitFor).toMatchObject({ type: 'integer', minimum: 0, maximum: 60_000 });
    expect(scrape.properties.proxy.enum).toEqual(['basic', 'stealth', 'enhanced', 'auto']);
    expect(scrape.properties.origin.description).toMatch(/ignored/);
    // Refused options are not offered: left out, and additionalProperties refuses them.
    expect(scrape.properties).not.toHaveProperty('extract');
    expect(scrape.properties.jsonOptions.description).toMatch(/v1: `\{ schema\?, prompt\? \}` of the `json` format/);
    expect(scrape.properties.actions).toMatchObject({ type: 'array', maxItems: 50 });
    const click = scrape.properties.actions.items.oneOf.find((a: any) => a.properties.type.const === 'click');
    expect(click).toMatchObject({ required: expect.arrayContaining(['type', 'selector']), additionalProperties: false });
    expect(click.description).toMatch(/fails the scrape when none matches/);
    const crawl = doc.components.schemas.FirecrawlV2StartCrawlRequest;
    expect(crawl.properties).not.toHaveProperty('webhook');
    expect(crawl.properties).not.toHaveProperty('prompt');
    expect(crawl.properties.scrapeOptions.properties.formats.description).toMatch(/markdown/);
    for (const schema of ['FirecrawlV2ScrapeRequest', 'FirecrawlV2StartCrawlRequest', 'FirecrawlV2StartBatchScrapeRequest', 'FirecrawlV1MapRequest', 'FirecrawlV2SearchRequest']) {
      for (const field of Object.values(doc.components.schemas[schema].properties) as any[]) expect(field.description).toBeTruthy();
    }
    const status = doc.paths['/v2/crawl/{id}'].get;
    expect(status.parameters.map((p: any) => [p.name, p.in, p.required])).toEqual([['id', 'path', true], ['skip', 'query', false], ['limit', 'query', false]]);
    const page = await (await fetch(`${trawl.baseUrl}/docs`)).text();
    expect(page).toContain('POST</span> /v2/scrape');
    expect(page).toMatch(/id="firecrawlV2Scrape".*<h3>JSON body<\/h3><table>.*<code>onlyMainContent<\/code>/);
  });

  it('real /v2 and /v1 answers validate: scrape, crawl, batch, status pages, errors, cancel, map, search, credit usage; 400, 401, 402, 404', async () => {
    const account = await trawl.createAccount();
    const apiKey = account.apiKey;
    const scrape = await send('POST', '/v2/scrape', { url: `${site.url}/a`, formats: ['markdown', 'html', 'rawHtml', 'links', 'images'], origin: 'test' }, apiKey);
    expect(scrape.status).toBe(200);
    expect(scrape.body.data.metadata).toMatchObject({ statusCode: 200, engine: 'http' });
    expectValid('/v2/scrape', 200, scrape.body, 'post');
    const v1 = await send('POST', '/v1/scrape', { url: `${site.url}/a`, formats: ['markdown'] }, apiKey);
    expect(v1.status).toBe(200);
    expectValid('/v1/scrape', 200, v1.body, 'post');
    const acted = await send('POST', '/v2/scrape', { url: `${site.url}/a`, actions: [{ type: 'executeJavascript', script: 'document.title' }, { type: 'scrape' }, { type: 'screenshot' }] }, apiKey);
    expect(acted.status).toBe(200);
    expect(acted.body.data.actions).toMatchObject({ screenshots: [expect.any(String)], scrapes: [{ url: `${site.url}/a` }], javascriptReturns: [{ type: 'string' }], pdfs: [] });
    expectValid('/v2/scrape', 200, acted.body, 'post');
    const failedAction = await send('POST', '/v2/scrape', { url: `${site.url}/a`, actions: [{ type: 'click', selector: '#none' }] }, apiKey);
    expect(failedAction.status).toBe(500);
    expect(failedAction.body).toMatchObject({ success: false, code: 'SCRAPE_ACTION_ERROR' });
    expectValid('/v2/scrape', 500, failedAction.body, 'post');
    const bad = await send('POST', '/v2/scrape', { url: `${site.url}/a`, formats: ['summary'], waitFor: -1 }, apiKey);
    expect(bad.status).toBe(400);
    expectValid('/v2/scrape', 400, bad.body, 'post');
    const noLlm = await send('POST', '/v1/scrape', { url: `${site.url}/a`, formats: ['json'], jsonOptions: { prompt: 'The topic' } }, apiKey);
    expect(noLlm.status).toBe(400);
    expect(noLlm.body.error).toMatch(/LLM_BASE_URL/);
    expectValid('/v1/scrape', 400, noLlm.body, 'post');
    const anonymous = await send('POST', '/v2/scrape', { url: `${site.url}/a` });
    expect(anonymous.status).toBe(401);
    expectValid('/v2/scrape', 401, anonymous.body, 'post');

    const started = await send('POST', '/v2/crawl', { url: `${site.url}/a`, limit: 2, sitemap: 'skip' }, apiKey);
    expect(started.status).toBe(200);
    expectValid('/v2/crawl', 200, started.body, 'post');
    let last: unknown;
    const done = await pollUntil(async () => {
      const read = await send('GET', `/v2/crawl/${started.body.id}`, undefined, apiKey);
      last = read.body;
      return read.body.status === 'completed' ? read.body : null;
    }, 'the crawl to complete', 30_000, 100).catch(async (error: Error) => {
      const native = await send('GET', `/crawls/${started.body.id}`, undefined, apiKey);
      throw new Error(`${error.message}; last status: ${JSON.stringify(last).slice(0, 300)}; native: ${JSON.stringify(native.body).slice(0, 500)}`);
    });
    expect(done.data.length).toBeGreaterThan(0);
    expectValid('/v2/crawl/{id}', 200, done);
    expectValid('/v1/crawl/{id}', 200, (await send('GET', `/v1/crawl/${started.body.id}`, undefined, apiKey)).body);
    expectValid('/v2/crawl/{id}', 400, (await send('GET', `/v2/crawl/${started.body.id}?limit=0`, undefined, apiKey)).body);
    expectValid('/v2/crawl/{id}/errors', 200, (await send('GET', `/v2/crawl/${started.body.id}/errors`, undefined, apiKey)).body);
    expectValid('/v1/crawl/{id}/errors', 200, (await send('DELETE', `/v1/crawl/${started.body.id}/errors`, undefined, apiKey)).body, 'delete');
    const finished = await send('DELETE', `/v2/crawl/${started.body.id}`, undefined, apiKey);
    expect(finished.status).toBe(200);
    expectValid('/v2/crawl/{id}', 200, finished.body, 'delete');
    const missing = await send('GET', '/v2/crawl/00000000-0000-4000-8000-000000000000', undefined, apiKey);
    expect(missing.status).toBe(404);
    expectValid('/v2/crawl/{id}', 404, missing.body);

    // A crawl held open by its delay between two pages of one host, listed as active, cancelled while it runs.
    const held = await send('POST', '/v2/crawl', { url: `${site.url}/a`, limit: 3, sitemap: 'skip', delay: 60, crawlEntireDomain: true }, apiKey);
    const active = await send('GET', '/v2/crawl/active', undefined, apiKey);
    expect(active.body.crawls.map((c: any) => c.id)).toContain(held.body.id);
    expectValid('/v2/crawl/active', 200, active.body);
    const cancelled = await send('DELETE', `/v2/crawl/${held.body.id}`, undefined, apiKey);
    expect(cancelled.status).toBe(200);
    expectValid('/v2/crawl/{id}', 200, cancelled.body, 'delete');

    const batch = await send('POST', '/v2/batch/scrape', { urls: [`${site.url}/a`, 'not a url'], formats: ['markdown', 'links'] }, apiKey);
    expect(batch.body.invalidURLs).toEqual(['not a url']);
    expectValid('/v2/batch/scrape', 200, batch.body, 'post');
    const batched = await pollUntil(async () => {
      const read = await send('GET', `/v2/batch/scrape/${batch.body.id}`, undefined, apiKey);
      last = read.body;
      return read.body.status === 'completed' ? read.body : null;
    }, 'the batch to complete', 30_000, 100).catch(async (error: Error) => {
      const native = await send('GET', `/batches/${batch.body.id}`, undefined, apiKey);
      throw new Error(`${error.message}; last status: ${JSON.stringify(last).slice(0, 300)}; native: ${JSON.stringify(native.body).slice(0, 500)}`);
    });
    expectValid('/v2/batch/scrape/{id}', 200, batched);

    for (const version of ['v1', 'v2']) {
      const map = await send('POST', `/${version}/map`, { url: `${site.url}/a`, sitemap: 'skip' }, apiKey);
      expect(map.status).toBe(200);
      expectValid(`/${version}/map`, 200, map.body, 'post');
      // The fixture engine's second result is an image: its scrape fails, listed in its metadata and the warning.
      const search = await send('POST', `/${version}/search`, { query: 'trawling', limit: 2, scrapeOptions: { formats: ['markdown'] } }, apiKey);
      expect(search.status).toBe(200);
      expect(search.body.warning).toBeDefined();
      expectValid(`/${version}/search`, 200, search.body, 'post');
    }
    expectValid('/v2/team/credit-usage', 200, (await send('GET', '/v2/team/credit-usage', undefined, apiKey)).body);

    await trawl.db.pool.query('UPDATE accounts SET balance = 0 WHERE id = $1', [account.accountId]);
    const broke = await send('POST', '/v2/scrape', { url: `${site.url}/a` }, apiKey);
    expect(broke.status).toBe(402);
    expectValid('/v2/scrape', 402, broke.body, 'post');
  });

  it('a Firecrawl answer with an undocumented field does not validate (the check has teeth)', () => {
    const answer = { success: true, data: { markdown: '# x', metadata: { sourceURL: 'https://x.example/', surprise: 1 } } };
    expect(() => expectValid('/v2/scrape', 200, answer, 'post')).toThrow(/surprise|additional/);
    expect(() => expectValid('/v2/scrape', 400, { success: false, error: 'x', surprise: 1 }, 'post')).toThrow(/surprise|additional/);
  });
});
