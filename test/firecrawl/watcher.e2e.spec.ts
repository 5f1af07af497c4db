/**
 * The Firecrawl watcher (WebSocket on `/v2/crawl/{id}` and `/v2/batch/scrape/{id}`, and `/v1/crawl/{id}` for the v1
 * client's crawls and batches; the API key as subprotocol) through the SDK's own watchers (v2 and v1) and a raw client, against the real gateway on loopback: documents arrive and then
 * done, a late watcher gets the pages in its catchup, a cancelled crawl ends cancelled, one poller serves every
 * connection of a job, and a bad key, another account's job and one connection too many are closed with a reason.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import Firecrawl, { FirecrawlAppV1 } from '@mendable/firecrawl-js';
import { WebSocket as UndiciWebSocket } from 'undici';
import WebSocket from 'ws';
import { FirecrawlWatchService } from '#apps/gateway/src/firecrawl/firecrawl-watch.service.js';
import type { FixtureServer } from '../support/fixture-server.js';
import { key, startHarness, type Harness } from '../support/harness.js';
import { pollUntil } from '../support/poll.js';
import { startSite } from './site.js';

jest.setTimeout(120_000);

let trawl: Harness;
let site: FixtureServer;
let apiKey: string;
let client: Firecrawl;
/** The message types each WebSocket the SDK opened received, in order. */
const received: string[][] = [];

/** Node 20 has no global WebSocket (the SDK's first choice; Node 22 has undici's): the same one, recording messages. */
class RecordingWebSocket extends UndiciWebSocket {
  constructor(url: string, protocols?: string | string[]) {
    super(url, protocols);
    const types: string[] = [];
    received.push(types);
    this.addEventListener('message', (event) => types.push((JSON.parse(String(event.data)) as { type: string }).type));
  }
}

beforeAll(async () => {
  (globalThis as { WebSocket?: unknown }).WebSocket = RecordingWebSocket;
  site = await startSite();
  trawl = await startHarness({ CRAWL_HOST_MIN_GAP_MS: '0', CRAWL_HOST_MAX_INFLIGHT: '8', FIRECRAWL_WATCH_MAX_PER_ACCOUNT: '3' });
  apiKey = (await trawl.createAccount()).apiKey;
  client = new Firecrawl({ apiKey, apiUrl: trawl.baseUrl });
});

afterAll(async () => {
  delete (globalThis as { WebSocket?: unknown }).WebSocket;
  await trawl?.close();
  await site?.close();
});

const wsUrl = (path: string) => `${trawl.baseUrl.replace(/^http/, 'ws')}${path}`;

interface Session {
  messages: Array<{ type: string; data?: any; error?: string }>;
  closed: Promise<{ code: number; reason: string }>;
  socket: WebSocket;
}

/** A raw watcher: every message it receives, and how it was closed. */
function open(path: string, protocol: string): Session {
  const socket = new WebSocket(wsUrl(path), protocol);
  const messages: Session['messages'] = [];
  socket.on('message', (data) => messages.push(JSON.parse(String(data)) as Session['messages'][number]));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  return { messages, closed, socket };
}

interface Watched {
  documents: Array<{ markdown?: string; metadata?: { sourceURL?: string } }>;
  done: { status: string; completed?: number; total?: number };
}

/** Runs the SDK's watcher on a job to its `done` event. */
async function watchToDone(id: string, kind: 'crawl' | 'batch'): Promise<Watched> {
  const watcher = client.watcher(id, { kind, pollInterval: 60, timeout: 60 });
  const documents: Watched['documents'] = [];
  watcher.on('document', (doc: Watched['documents'][number]) => documents.push(doc));
  const done = new Promise<Watched['done']>((resolve, reject) => {
    watcher.on('done', resolve);
    watcher.on('error', (e: { error: string }) => reject(new Error(e.error)));
  });
  await watcher.start();
  try {
    return { documents, done: await done };
  } finally {
    watcher.close();
  }
}

describe('the SDK watcher', () => {
  it('receives a crawl\'s documents over the WebSocket, then done with the counts', async () => {
    // One page a second: the crawl is still running when the watcher joins, whatever the machine's speed.
    const started = await client.startCrawl(`${site.url}/tree/`, { sitemap: 'skip', limit: 6, delay: 1 });
    const before = received.length;
    const { documents, done } = await watchToDone(started.id, 'crawl');
    expect(done).toMatchObject({ status: 'completed', completed: 6, total: 6 });
    expect(documents).toHaveLength(6);
    expect(new Set(documents.map((d) => d.metadata?.sourceURL)).size).toBe(6);
    expect(documents.every((d) => d.markdown?.includes('Tree'))).toBe(true);
    // It came over the WebSocket: one connection, a catchup first and done last (the SDK polled nothing).
    const types = received.slice(before);
    expect(types).toHaveLength(1);
    expect(types[0][0]).toBe('catchup');
    expect(types[0]).toContain('document');
    expect(types[0][types[0].length - 1]).toBe('done');
    const status = await client.getCrawlStatus(started.id);
    expect(new Set(documents.map((d) => d.metadata?.sourceURL))).toEqual(new Set(status.data.map((d) => d.metadata?.sourceURL)));
  });

  it('watches a batch scrape at /v2/batch/scrape/{id}', async () => {
    const started = await client.startBatchScrape([`${site.url}/article`, `${site.url}/scoped`, `${site.url}/guide`], { options: { formats: ['markdown'] } });
    const before = received.length;
    const { documents, done } = await watchToDone(started.id, 'batch');
    expect(done.status).toBe('completed');
    expect(documents.map((d) => d.metadata?.sourceURL).sort()).toEqual([`${site.url}/article`, `${site.url}/guide`, `${site.url}/scoped`]);
    expect(received.slice(before)[0]).toContain('catchup');
  });

  it('is refused a wrong key: the error event says Unauthorized', async () => {
    const started = await client.startBatchScrape([`${site.url}/article`], { options: { formats: ['markdown'] } });
    const wrong = new Firecrawl({ apiKey: 'trawl_not-a-real-key-000000', apiUrl: trawl.baseUrl });
    const watcher = wrong.watcher(started.id, { kind: 'batch', pollInterval: 60, timeout: 30 });
    const error = new Promise<{ error: string }>((resolve) => watcher.on('error', resolve));
    await watcher.start();
    expect((await error).error).toMatch(/^Unauthorized/);
    watcher.close();
  });
});

interface WatchedV1 {
  documents: Array<{ markdown?: string; metadata?: { sourceURL?: string } }>;
  done: { status: string; data: unknown[] };
}

/** Runs the v1 client's CrawlWatcher (a WebSocket on /v1/crawl/{id}, for crawls and batches alike) to its `done`. */
async function watchV1ToDone(watcher: EventTarget & { close(): void }): Promise<WatchedV1> {
  const documents: WatchedV1['documents'] = [];
  watcher.addEventListener('document', (event) => documents.push((event as CustomEvent).detail));
  const done = new Promise<WatchedV1['done']>((resolve, reject) => {
    watcher.addEventListener('done', (event) => resolve((event as CustomEvent).detail));
    watcher.addEventListener('error', (event) => reject(new Error(String((event as CustomEvent).detail.error))));
  });
  try {
    return { documents, done: await done };
  } finally {
    watcher.close();
  }
}

describe('the v1 client\'s watcher', () => {
  const v1 = () => new FirecrawlAppV1({ apiKey, apiUrl: trawl.baseUrl });
  // The v1 watcher reads the close reason as a message in JSON, as Firecrawl's server writes it, and logs what it cannot parse.
  let logged: jest.SpiedFunction<typeof console.error>;
  beforeEach(() => void (logged = jest.spyOn(console, 'error')));
  afterEach(() => {
    expect(logged.mock.calls.map((call) => String(call[0]))).toEqual([]);
    logged.mockRestore();
  });

  it('crawlUrlAndWatch: every page as a document event over /v1/crawl/{id}, then done', async () => {
    const before = received.length;
    const watcher = await v1().crawlUrlAndWatch(`${site.url}/tree/`, { limit: 5, ignoreSitemap: true, delay: 1 } as never);
    const { documents, done } = await watchV1ToDone(watcher);
    expect(done.status).toBe('completed');
    expect(documents).toHaveLength(5);
    expect(new Set(documents.map((d) => d.metadata?.sourceURL)).size).toBe(5);
    expect(documents.every((d) => d.markdown?.includes('Tree'))).toBe(true);
    const types = received.slice(before);
    expect(types).toHaveLength(1);
    expect(types[0][types[0].length - 1]).toBe('done');
  });

  it('batchScrapeUrlsAndWatch: a batch watched on /v1/crawl/{id}, as the v1 client watches it', async () => {
    const urls = [`${site.url}/article`, `${site.url}/scoped`, `${site.url}/guide`];
    const watcher = await v1().batchScrapeUrlsAndWatch(urls, { formats: ['markdown'] });
    const { documents, done } = await watchV1ToDone(watcher);
    expect(done.status).toBe('completed');
    expect(documents.map((d) => d.metadata?.sourceURL).sort()).toEqual([...urls].sort());
    expect(documents.every((d) => (d.markdown?.length ?? 0) > 0)).toBe(true);
  });
});

describe('the WebSocket as any client sees it', () => {
  it('gives a watcher that joins after the crawl finished every page in its catchup, with the status, then closes 1000', async () => {
    const crawled = await client.crawl(`${site.url}/tree/`, { sitemap: 'skip', limit: 12, pollInterval: 1, timeout: 60 });
    const late = open(`/v2/crawl/${crawled.id}`, apiKey);
    expect(await late.closed).toEqual({ code: 1000, reason: '{"type":"done"}' });
    expect(late.messages).toHaveLength(1);
    expect(late.messages[0]).toMatchObject({ type: 'catchup', data: { status: 'completed', completed: 12, total: 12 } });
    expect(late.messages[0].data.data).toHaveLength(12);
  });

  it('serves every connection of a job from one poller, and ends a cancelled crawl with its status', async () => {
    // One page a second: the crawl is still running while it is watched.
    const started = await client.startCrawl(`${site.url}/tree/`, { sitemap: 'skip', limit: 20, delay: 1 });
    const watchers = [open(`/v2/crawl/${started.id}`, apiKey), open(`/v2/crawl/${started.id}`, apiKey)];
    await pollUntil(() => watchers.every((w) => w.messages.some((m) => m.type === 'document')), 'documents to reach both watchers', 30_000);
    expect(watchers[0].messages[0]).toMatchObject({ type: 'catchup', data: { status: 'scraping' } });
    expect(trawl.app.get(FirecrawlWatchService).jobsWatched).toBe(1);
    // A third is within the bound (3); a fourth is one too many.
    const third = open(`/v2/crawl/${started.id}`, apiKey);
    await pollUntil(() => third.messages.length > 0, 'the third watcher\'s catchup');
    const fourth = open(`/v2/crawl/${started.id}`, apiKey);
    expect(await fourth.closed).toEqual({ code: 4429, reason: JSON.stringify({ type: 'error', error: 'Too many watchers: this account may hold 3 open at once' }) });
    expect(fourth.messages).toEqual([{ type: 'error', error: 'Too many watchers: this account may hold 3 open at once' }]);
    third.socket.close();
    await third.closed;
    expect(await client.cancelCrawl(started.id)).toBe(true);
    for (const w of watchers) {
      expect(await w.closed).toMatchObject({ code: 1000 });
      expect(w.messages[w.messages.length - 1]).toMatchObject({ type: 'catchup', data: { status: 'cancelled', data: [] } });
    }
    await pollUntil(() => trawl.app.get(FirecrawlWatchService).jobsWatched === 0, 'the feed to be dropped');
  });

  it('closes a wrong key with 3000, another account\'s job or an unknown one with 1008', async () => {
    const started = await client.startBatchScrape([`${site.url}/article`], { options: { formats: ['markdown'] } });
    const wrong = open(`/v2/batch/scrape/${started.id}`, 'trawl_not-a-real-key-000000');
    expect((await wrong.closed).code).toBe(3000);
    expect(wrong.messages[0]).toMatchObject({ type: 'error', error: expect.stringMatching(/^Unauthorized/) });
    const other = await trawl.createAccount();
    const foreign = open(`/v2/batch/scrape/${started.id}`, other.apiKey);
    expect(await foreign.closed).toEqual({ code: 1008, reason: JSON.stringify({ type: 'error', error: 'Job not found' }) });
    const unknown = open('/v2/crawl/00000000-0000-4000-8000-000000000000', apiKey);
    expect((await unknown.closed).code).toBe(1008);
    // The REST route is unchanged beside it.
    expect((await trawl.get(`/v2/batch/scrape/${started.id}`, key(apiKey))).status).toBe(200);
  });

  it('refuses an upgrade on any other path with a 404', async () => {
    const socket = new WebSocket(wsUrl('/crawls/whatever'), apiKey);
    const status = await new Promise<number | undefined>((resolve) => {
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode));
      socket.on('error', () => resolve(undefined));
    });
    expect(status).toBe(404);
  });
});
