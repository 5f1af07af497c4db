import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig, nominatimMinIntervalMs, pageCacheMaxAgeS } from './index.js';

describe('loadConfig', () => {
  it('applies defaults: private addresses refused, 20 URLs per crawl', () => {
    const config = loadConfig({});
    expect(config.ALLOW_PRIVATE_ADDRESSES).toBe(false);
    expect(config.CRAWL_MAX_URLS).toBe(20);
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('has the page cache on per account by default, and refuses a bad setting of it by name', () => {
    const config = loadConfig({});
    expect([config.PAGE_CACHE_MAX_BYTES, config.PAGE_CACHE_MAX_AGE_MS, config.PAGE_CACHE_SCOPE]).toEqual([64 * 1024 * 1024, 172_800_000, 'account']);
    expect(pageCacheMaxAgeS(loadConfig({ PAGE_CACHE_MAX_AGE_MS: '90500' }))).toBe(90);
    expect(() => loadConfig({ PAGE_CACHE_SCOPE: 'public' })).toThrow(/PAGE_CACHE_SCOPE/);
    expect(() => loadConfig({ PAGE_CACHE_MAX_AGE_MS: '500' })).toThrow(/PAGE_CACHE_MAX_AGE_MS/);
    expect(() => loadConfig({ PAGE_CACHE_MAX_BYTES: '-1' })).toThrow(/PAGE_CACHE_MAX_BYTES/);
  });

  it('names every invalid variable without echoing secret values', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', ADMIN_TOKEN: 'short-secret', ALLOW_PRIVATE_ADDRESSES: 'maybe' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('PORT');
    expect(message).toContain('ADMIN_TOKEN');
    expect(message).toContain('ALLOW_PRIVATE_ADDRESSES');
    expect(message).not.toContain('short-secret');
  });

  it('reads PDF_MAX_PAGES as a page count of at least 1, naming it when it is not', () => {
    expect(loadConfig({}).PDF_MAX_PAGES).toBe(200);
    expect(loadConfig({ PDF_MAX_PAGES: '5' }).PDF_MAX_PAGES).toBe(5);
    for (const bad of ['0', '-3', 'many', '2.5']) expect(() => loadConfig({ PDF_MAX_PAGES: bad })).toThrow(/PDF_MAX_PAGES/);
  });

  it('refuses settings that contradict each other at boot, naming the variable', () => {
    expect(() => loadConfig({ SERP_ENGINE: 'searxng' })).toThrow(/SEARXNG_BASE_URL: required when SERP_ENGINE=searxng/);
    expect(loadConfig({ SERP_ENGINE: 'searxng', SEARXNG_BASE_URL: 'http://127.0.0.1:8888' }).SERP_ENGINE).toBe('searxng');
  });

  it('refuses a /serp-search engine that has no /serp-search parser, naming SERP_ENGINE', () => {
    for (const engine of ['bing', 'duckduckgo']) expect(() => loadConfig({ SERP_ENGINE: engine })).toThrow(/SERP_ENGINE: must be one of google, searxng/);
    expect(loadConfig({ SEARCH_ENGINE: 'duckduckgo' }).SEARCH_ENGINE).toBe('duckduckgo');
  });

  it('refuses a malformed proxy list at boot, naming the variable and never echoing a credential', () => {
    expect(() => loadConfig({ PROXIES: 'http://user:hunter2@proxy:8000' })).toThrow(/PROXIES: entry 1 has no "country=" prefix/);
    expect(() => loadConfig({ PROXIES: 'us=ftp://user:hunter2@proxy:8000' })).toThrow(/PROXIES: entry 1 \(us\): the scheme must be http or https/);
    expect(() => loadConfig({ RESIDENTIAL_PROXIES: 'zz=http://proxy:8000' })).toThrow(/RESIDENTIAL_PROXIES: entry 1: "zz" is not/);
    expect(() => loadConfig({ PROXIES: 'us=http://user:hunter2@proxy:8000,de' })).not.toThrow(/hunter2/);
    expect(loadConfig({ PROXIES: 'us=http://127.0.0.1:8000|http://127.0.0.1:8001,*=http://127.0.0.1:8002' }).PROXIES).toContain('us=');
  });

  it('defaults /search to Bing and refuses /search settings that contradict each other', () => {
    expect(loadConfig({}).SEARCH_ENGINE).toBe('bing');
    expect(() => loadConfig({ SEARCH_ENGINE: 'searxng' })).toThrow(/SEARXNG_BASE_URL: required when SEARCH_ENGINE=searxng/);
    expect(() => loadConfig({ SEARCH_CRAWL_TIMEOUT_MS: '20000', SEARCH_CRAWL_DEADLINE_MS: '5000' })).toThrow(/SEARCH_CRAWL_TIMEOUT_MS: must not exceed/);
  });

  it('/headful-browser settings: a provider template needs {session} and is never echoed; standalone hosts headful by default', () => {
    const secret = 'http://user-country-{country}:hunter2@proxy.example:7777';
    expect(() => loadConfig({ RESIDENTIAL_PROXY_URL: secret })).toThrow(/RESIDENTIAL_PROXY_URL: must contain \{session\}/);
    expect(() => loadConfig({ RESIDENTIAL_PROXY_URL: secret })).not.toThrow(/hunter2/);
    expect(loadConfig({ RESIDENTIAL_PROXY_URL: `${secret.replace(':hunter2', '-session-{session}:hunter2')}` }).RESIDENTIAL_PROXY_URL).toContain('{session}');
    expect(loadConfig({}).STANDALONE_WORKERS).toEqual(['http', 'render', 'headful']);
    expect(loadConfig({ STANDALONE_WORKERS: 'http,headful' }).STANDALONE_WORKERS).toEqual(['http', 'headful']);
    expect(() => loadConfig({ STANDALONE_WORKERS: 'http,stealth' })).toThrow(/STANDALONE_WORKERS/);
  });

  it('refuses a reservation TTL the reconciler could expire while a call is still running', () => {
    expect(() => loadConfig({ REQUEST_DEADLINE_MS: '120000', RESERVATION_TTL_MS: '60000' })).toThrow(/RESERVATION_TTL_MS: must be at least/);
    expect(loadConfig({ REQUEST_DEADLINE_MS: '120000', RESERVATION_TTL_MS: '180000' }).RESERVATION_TTL_MS).toBe(180000);
  });

  it('checks the LLM settings against the request deadline only when an LLM is configured', () => {
    expect(loadConfig({ REQUEST_DEADLINE_MS: '5000' }).REQUEST_DEADLINE_MS).toBe(5000);
    const llm = { LLM_BASE_URL: 'http://127.0.0.1:11434/v1', LLM_MODEL: 'm', REQUEST_DEADLINE_MS: '5000' };
    expect(() => loadConfig(llm)).toThrow(/LLM_TIMEOUT_MS: must be shorter than REQUEST_DEADLINE_MS/);
    expect(loadConfig({ ...llm, LLM_TIMEOUT_MS: '4000' }).LLM_TIMEOUT_MS).toBe(4000);
    expect(() => loadConfig({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1' })).toThrow(/LLM_MODEL: required/);
  });

  it('/serp-maps: Google by default; the public Nominatim is held to 1 request/s, a self-hosted one is not', () => {
    expect(loadConfig({}).MAPS_PROVIDER).toBe('google');
    expect(nominatimMinIntervalMs(loadConfig({ MAPS_PROVIDER: 'osm' }))).toBe(1000);
    expect(nominatimMinIntervalMs(loadConfig({ MAPS_PROVIDER: 'osm', NOMINATIM_BASE_URL: 'http://nominatim.internal:8080' }))).toBe(0);
    expect(() => loadConfig({ NOMINATIM_MIN_INTERVAL_MS: '200' })).toThrow(/NOMINATIM_MIN_INTERVAL_MS: must be at least 1000/);
    expect(() => loadConfig({ MAPS_PROVIDER: 'bing' })).toThrow(/MAPS_PROVIDER/);
  });

  it('reads MCP_ALLOWED_ORIGINS as a list of normalised origins and names it when an entry is not one', () => {
    expect(loadConfig({}).MCP_ALLOWED_ORIGINS).toEqual([]);
    expect(loadConfig({ MCP_ALLOWED_ORIGINS: 'http://localhost:6274, https://App.Example/' }).MCP_ALLOWED_ORIGINS).toEqual([
      'http://localhost:6274',
      'https://app.example',
    ]);
    expect(() => loadConfig({ MCP_ALLOWED_ORIGINS: 'localhost:6274' })).toThrow(/MCP_ALLOWED_ORIGINS/);
  });
});
