import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { detectBlock } from './block-detection.js';

const page = (body: string, title = 'Page') => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;
const ARTICLE = page(`<main><h1>Trawling</h1><p>${'A long paragraph about nets and boats and the sea. '.repeat(20)}</p></main>`);

describe('detectBlock', () => {
  it('passes a normal article, also one that mentions captchas in passing on a large page', () => {
    expect(detectBlock({ status: 200, html: ARTICLE })).toEqual({ blocked: false });
    const large = page(`<p>${'How sites use g-recaptcha and "Access Denied" pages. '.repeat(400)}</p>`);
    expect(detectBlock({ status: 200, html: large }).blocked).toBe(false);
  });

  it('tier 1: vendor markers at any size (Cloudflare, Akamai, PerimeterX, DataDome, Incapsula)', () => {
    const cases: Array<[string, string]> = [
      ['<form id="challenge-form" action="/?__cf_chl_f_tk=abc">', 'cloudflare challenge'],
      ['<script src="https://challenges.cloudflare.com/turnstile/v0/api.js"></script>', 'cloudflare turnstile'],
      ['<p>Reference #18.2d351ab8.1557333295.a4e16ab</p>', 'akamai reference page'],
      ['<script>window._pxAppId = "PXabc";</script>', 'perimeterx'],
      ['<script src="https://ct.captcha-delivery.com/c.js"></script>', 'datadome'],
      ['<iframe src="/_Incapsula_Resource?x=1"></iframe>', 'incapsula'],
      // Every other marker too: each must also pass the one-pass filter that runs before them.
      ['<input type="hidden" name="__cf_chl_opt" value="1">', 'cloudflare challenge'],
      ['<script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script>', 'cloudflare challenge platform'],
      ['<span class="cf-error-code">1020</span>', 'cloudflare error page'],
      ['<p>Reference&#32;#18.2d351ab8.1557333295.a4e16ab</p>', 'akamai reference page'],
      ['<h1>Pardon Our Interruption</h1>', 'akamai/distil interruption page'],
      ['<script src="https://captcha.px-cdn.net/PXabc/captcha.js"></script>', 'perimeterx'],
      ['<div id="px-captcha"></div>', 'perimeterx'],
      ['<script src="https://geo.captcha-delivery.com/captcha/"></script>', 'datadome'],
      ['<p>Request unsuccessful. INCAPSULA incident ID: 123-456</p>', 'incapsula'],
      ['<h2>Sucuri WebSite Firewall - Access Denied</h2>', 'sucuri'],
      ['<script>KPSDK.scriptStart=KPSDK.now()</script>', 'kasada'],
      ['<p>You have been Blocked by Network Security.</p>', 'network security block'],
    ];
    for (const [marker, reason] of cases) {
      expect(detectBlock({ status: 200, html: page(`${marker}${'<p>filler text</p>'.repeat(10)}`) })).toMatchObject({ blocked: true, tier: 1, reason });
    }
    expect(detectBlock({ status: 200, html: ARTICLE, headers: { 'cf-mitigated': 'challenge' } })).toMatchObject({ blocked: true, tier: 1 });
  });

  it('tier 2: walls on small pages and refusing statuses', () => {
    expect(detectBlock({ status: 403, html: page('<h1>Access Denied</h1><p>You don\'t have permission.</p>') })).toMatchObject({ blocked: true, tier: 2 });
    expect(detectBlock({ status: 200, html: page('<div class="g-recaptcha" data-sitekey="x"></div><p>Please verify you are human to continue.</p>') })).toMatchObject({
      blocked: true,
      reason: 'recaptcha wall',
    });
    expect(detectBlock({ status: 200, html: page('<div class="h-captcha"></div><p>One more step before you continue</p>') }).reason).toBe('hcaptcha wall');
    expect(detectBlock({ status: 503, html: page('<p>Checking your browser before accessing the site.</p>', 'Just a moment...') }).blocked).toBe(true);
    expect(detectBlock({ status: 429, html: ARTICLE })).toMatchObject({ blocked: true, reason: 'HTTP 429' });
  });

  it('a 404 or 403 with real content is a page, not a block', () => {
    expect(detectBlock({ status: 404, html: ARTICLE }).blocked).toBe(false);
    expect(detectBlock({ status: 403, html: ARTICLE }).blocked).toBe(false);
  });

  it('tier 3: structurally empty pages', () => {
    expect(detectBlock({ status: 200, html: '' })).toMatchObject({ blocked: true, tier: 3, reason: 'empty response' });
    expect(detectBlock({ status: 200, html: page('<div id="root"></div><script>/* app */ var x = 1; var y = 2; var z = 3;</script>') })).toMatchObject({
      blocked: true,
      tier: 3,
      reason: 'script-only shell',
    });
    expect(detectBlock({ status: 200, html: page('<img src="/chart.png" alt="">') }).blocked).toBe(false);
  });
});

// The shared corpus sits beside the checkout on the development machines; a clone elsewhere skips these.
const corpus = path.resolve(fileURLToPath(import.meta.url), '../../../../../shared/corpus');
const hasCorpus = existsSync(path.join(corpus, 'serp')) && existsSync(path.join(corpus, 'extraction'));
if (!hasCorpus) console.warn(`SKIPPED detectBlock corpus cases: ${corpus} not found`);

(hasCorpus ? describe : describe.skip)('detectBlock on real pages (../shared/corpus)', () => {
  const pages = (dir: string) =>
    readdirSync(path.join(corpus, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.html(\.gz)?$/.test(f))
      .map((f) => {
        const bytes = readFileSync(path.join(corpus, dir, f));
        return { file: `${dir}/${f}`, html: (f.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8') };
      });

  it('flags exactly the captcha pages among 157 captured result pages, and none of 181 Zyte articles', () => {
    const serp = pages('serp');
    const zyte = pages('extraction/zyte-article-extraction-benchmark/html');
    expect(serp.length).toBeGreaterThanOrEqual(150);
    expect(zyte.length).toBeGreaterThanOrEqual(180);
    const flagged = [...serp, ...zyte].filter((p) => detectBlock({ status: 200, html: p.html }).blocked).map((p) => p.file.split('/').pop());
    expect(flagged.sort()).toEqual(['captcha.html.gz', 'recaptcha.html.gz', 'recaptcha.html.gz']);
  });

  it('no vendor (tier 1) marker on any real article page of the extraction corpora', () => {
    const articles = pages('extraction').filter((p) => !p.file.includes('mozilla-readability-test-pages'));
    expect(articles.length).toBeGreaterThan(1500);
    const vendor = articles.filter((p) => detectBlock({ status: 200, html: p.html }).tier === 1).map((p) => p.file);
    expect(vendor).toEqual([]);
  });
});
