/**
 * Specification conformance, `GET /crawl` (spec §4.4, §2.4, §8): each parameter absent, at its default, at each
 * allowed value and empty, against the real gateway and workers and fixture pages on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ARTICLE, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { key, startHarness, type Harness } from '../support/harness.js';
import { startRecordingProxy, type RecordingProxy } from '../support/recording-proxy.js';
import { expectEach, expectError, expectShape } from './support/shape.js';
import { COST, CRAWL_PARAMS, CRAWL_RESPONSE, CRAWL_RESULT_DEFAULT, CRAWL_RESULT_FAILED } from './support/spec.js';

let trawl: Harness;
let site: FixtureServer;
let proxy: RecordingProxy;
let apiKey: string;
let accountId: string;

/** Sends a /crawl request for the fixture article (plus `extra` query text) and checks the balance moved by `credits`. */
async function crawl(query: string) {
  const before = (await trawl.admin.report(accountId)).account.balance;
  const res = await trawl.get(`/crawl?${query}`, key(apiKey));
  const after = (await trawl.admin.report(accountId)).account.balance;
  return { ...res, charged: before - after };
}

const article = () => encodeURIComponent(`${site.url}/article`);

beforeAll(async () => {
  site = await startFixtureServer({
    '/article': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE),
    '/second': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE),
  });
  proxy = await startRecordingProxy();
  trawl = await startHarness({ PROXIES: `*=${proxy.url}`, CRAWL_TIMEOUT_MS: '5000' });
  ({ apiKey, accountId } = await trawl.createAccount('pro'));
});

afterAll(async () => {
  await trawl?.close();
  await site?.close();
  await proxy?.close();
});

describe('/crawl with only its required parameter (§4.4)', () => {
  it('answers 200 with §2.4 fields, the default formats (enhanced_html, markdown), 1 credit', async () => {
    const res = await crawl(`urls=${article()}`);
    expect(res.status).toBe(200);
    expectShape(res.body, CRAWL_RESPONSE);
    expectEach(res.body.results, CRAWL_RESULT_DEFAULT, 'results');
    expect(res.body).toMatchObject({ credits: COST.crawlHttp, successful_pages: 1 });
    expect(res.charged).toBe(COST.crawlHttp);
  });

  it('urls takes a comma-separated list: one result per URL, 1 credit each', async () => {
    const res = await crawl(`urls=${article()},${encodeURIComponent(`${site.url}/second`)}`);
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { url: string }) => r.url)).toEqual([`${site.url}/article`, `${site.url}/second`]);
    expect(res.body).toMatchObject({ credits: 2 * COST.crawlHttp, successful_pages: 2 });
    expect(res.charged).toBe(2 * COST.crawlHttp);
  });

  it('a failed URL carries error and costs 0 credits (§4.4, §8)', async () => {
    const res = await crawl(`urls=${encodeURIComponent('http://127.0.0.1:9/refused')}`);
    expect(res.status).toBe(200);
    expectEach(res.body.results, CRAWL_RESULT_FAILED, 'results');
    expect(res.body).toMatchObject({ credits: COST.failed, successful_pages: 0 });
    expect(res.charged).toBe(0);
  });

  it('missing urls is a 400 in the §7 error shape, charged nothing', async () => {
    const res = await crawl('');
    expectError(res, 400);
    expect(res.body.error.message).toMatch(/urls/);
    expect(res.charged).toBe(0);
  });
});

/** The output formats: each boolean's field is present exactly when the flag is on (§2.4 "if raw_html=true", …). */
const FORMAT_FLAGS = CRAWL_PARAMS.filter((row) => ['raw_html', 'enhanced_html', 'page_text', 'markdown'].includes(row.name));

describe.each(FORMAT_FLAGS)('/crawl $name (boolean, default $default)', (row) => {
  const field = row.name;
  const cases: Array<[string, string, boolean]> = [
    ['absent', '', row.default === 'true'],
    [`at its default (${row.default})`, `&${field}=${row.default}`, row.default === 'true'],
    ['true', `&${field}=true`, true],
    ['false', `&${field}=false`, false],
    ['empty (means the default)', `&${field}=`, row.default === 'true'],
  ];
  it.each(cases)('%s: 200, the field present only when on, 1 credit', async (_what, extra, present) => {
    const res = await crawl(`urls=${article()}${extra}`);
    expect(res.status).toBe(200);
    expectShape(res.body, CRAWL_RESPONSE);
    const [result] = res.body.results;
    expect(typeof result.status_code).toBe('number');
    if (present) expect(typeof result[field]).toBe('string');
    else expect(result).not.toHaveProperty(field);
    expect(res.charged).toBe(COST.crawlHttp);
  });
});

describe('/crawl several output formats at once (§4.4)', () => {
  it('returns every format asked for', async () => {
    const res = await crawl(`urls=${article()}&raw_html=true&enhanced_html=true&page_text=true&markdown=true`);
    expect(res.status).toBe(200);
    for (const field of ['raw_html', 'enhanced_html', 'page_text', 'markdown']) expect(typeof res.body.results[0][field]).toBe('string');
  });
});

describe('/crawl render_js (boolean, default false)', () => {
  it.each([
    ['absent', '', COST.crawlHttp],
    ['at its default (false)', '&render_js=false', COST.crawlHttp],
    ['empty (means the default)', '&render_js=', COST.crawlHttp],
    ['true: browser rendering', '&render_js=true', COST.crawlRender],
  ])('%s: 200 (%s), %i credits', async (_what, extra, credits) => {
    const res = await crawl(`urls=${article()}${extra}`);
    expect(res.status).toBe(200);
    expectEach(res.body.results, CRAWL_RESULT_DEFAULT, 'results');
    expect(res.body.credits).toBe(credits);
    expect(res.charged).toBe(credits);
  });

  it('screenshot=true with render_js=true: a base64 image in `screenshot`, 10 credits', async () => {
    const res = await crawl(`urls=${article()}&render_js=true&screenshot=true`);
    expect(res.status).toBe(200);
    expect(res.body.results[0].screenshot).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(res.body.results[0].screenshot, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(res.charged).toBe(COST.crawlRender);
  });

  it('screenshot=true with render_js=true and screenshot_full_page=true: still one screenshot', async () => {
    const res = await crawl(`urls=${article()}&render_js=true&screenshot=true&screenshot_full_page=true`);
    expect(res.status).toBe(200);
    expect(typeof res.body.results[0].screenshot).toBe('string');
  });

  it.each([
    ['screenshot', 'absent', ''],
    ['screenshot', 'false', '&screenshot=false'],
    ['screenshot_full_page', 'false', '&screenshot_full_page=false'],
    ['screenshot', 'empty', '&screenshot='],
  ])('%s %s: no screenshot field, normal price', async (_name, _what, extra) => {
    const res = await crawl(`urls=${article()}${extra}`);
    expect(res.status).toBe(200);
    expect(res.body.results[0]).not.toHaveProperty('screenshot');
    expect(res.charged).toBe(COST.crawlHttp);
  });

  // §4.4 "only effective when render_js=true, otherwise ignored" (issue #37 item 1).
  it.each([
    ['screenshot=true', '&screenshot=true'],
    ['screenshot_full_page=true', '&screenshot_full_page=true'],
    ['both', '&screenshot=true&screenshot_full_page=true'],
  ])('%s without render_js is ignored: 200, no screenshot field, 1 credit', async (_what, extra) => {
    const res = await crawl(`urls=${article()}${extra}`);
    expect(res.status).toBe(200);
    expectEach(res.body.results, CRAWL_RESULT_DEFAULT, 'results');
    expect(res.charged).toBe(COST.crawlHttp);
  });
});

describe('/crawl geolocation (ISO 3166-1 alpha-2, no default)', () => {
  it.each(['us', 'gb', 'DE'])('geolocation=%s: 200 through a proxy of that country, 1 credit', async (code) => {
    const carried = proxy.carried.length;
    const res = await crawl(`urls=${article()}&geolocation=${code}`);
    expect(res.status).toBe(200);
    expectEach(res.body.results, CRAWL_RESULT_DEFAULT, 'results');
    expect(proxy.carried.length).toBeGreaterThan(carried);
    expect(res.charged).toBe(COST.crawlHttp);
  });

  it('absent: fetched directly, no proxy', async () => {
    const carried = proxy.carried.length;
    const res = await crawl(`urls=${article()}`);
    expect(res.status).toBe(200);
    expect(proxy.carried.length).toBe(carried);
  });

  it('geolocation=uk is the United Kingdom (gb), as engines read it', async () => {
    const res = await crawl(`urls=${article()}&geolocation=uk`);
    expect(res.status).toBe(200);
    expect(res.body.successful_pages).toBe(1);
  });
});

describe('/crawl urls with a malformed entry (the spec is silent: the well-formed request succeeds)', () => {
  it('fails that entry on its own: its error, 0 credits; the others are crawled', async () => {
    const res = await crawl(`urls=${article()},${encodeURIComponent('not a url')}`);
    expect(res.status).toBe(200);
    expectEach([res.body.results[0]], CRAWL_RESULT_DEFAULT, 'results');
    expectEach([res.body.results[1]], CRAWL_RESULT_FAILED, 'results');
    expect(res.body.results[1]).not.toHaveProperty('status_code');
    expect(res.body).toMatchObject({ credits: COST.crawlHttp, successful_pages: 1 });
    expect(res.charged).toBe(COST.crawlHttp);
  });

  it('every entry malformed: 400 naming urls (nothing to crawl), charged nothing', async () => {
    const res = await crawl(`urls=${encodeURIComponent('not a url,also not one')}`);
    expectError(res, 400, 'INVALID_PARAMETER');
    expect(res.body.error.message).toMatch(/^urls/);
    expect(res.charged).toBe(0);
  });
});
