/** The crawl.page handler's retry decisions over a fake engine: which failures the queue may run again, and how often. */
import { describe, expect, it } from '@jest/globals';
import { EngineId, ErrorCode, TrawlError, engineRow, type CrawlPagePayload, type ProxyProvider } from '#contracts';
import type { ExtractionPool } from '#extraction';
import { CrawlPageHandler } from './crawl-page.handler.js';
import type { PageEngine } from './page-engine.js';

const failing = (error: TrawlError): PageEngine => ({
  row: {} as PageEngine['row'],
  fetchPage: async () => {
    throw error;
  },
  close: async () => undefined,
});

const proxies: ProxyProvider = { next: () => null, countries: () => [] };
const extraction = {} as ExtractionPool;
const payload: CrawlPagePayload = {
  callId: 'c',
  url: 'http://site.example/',
  formats: { raw_html: false, enhanced_html: false, markdown: false, page_text: true },
  device: 'desktop',
  timeoutMs: 5_000,
};
const browserOverMemory = new TrawlError(ErrorCode.RENDER_FAILED, 'Rendering failed: the browser went past its 3072 MiB memory limit and was restarted', 'transient');

describe('CrawlPageHandler retries', () => {
  it('throws a render failure on the first attempt, so the queue runs the page once more', async () => {
    await expect(new CrawlPageHandler(failing(browserOverMemory), proxies, extraction).handle(payload, 0)).rejects.toBe(browserOverMemory);
  });

  it('returns a render failure of a retry as the URL result: a page that keeps crashing its browser is not run again', async () => {
    const result = await new CrawlPageHandler(failing(browserOverMemory), proxies, extraction).handle(payload, 1);
    expect(result).toEqual({ ok: false, url: payload.url, error: browserOverMemory.toJSON() });
  });

  it('keeps retrying other transient faults up to the queue attempts', async () => {
    const reset = new TrawlError(ErrorCode.CONNECTION_FAILED, 'The connection failed (ECONNRESET)', 'transient');
    await expect(new CrawlPageHandler(failing(reset), proxies, extraction).handle(payload, 1)).rejects.toBe(reset);
  });

  it('returns a page past its memory limit at once (permanent)', async () => {
    const tooLarge = new TrawlError(ErrorCode.TOO_LARGE, 'The page used more than 1024 MiB of memory', 'permanent');
    expect(await new CrawlPageHandler(failing(tooLarge), proxies, extraction).handle(payload, 0)).toMatchObject({ ok: false, error: { code: 'TOO_LARGE' } });
  });
});

describe('CrawlPageHandler and page actions', () => {
  it('refuses a job with actions on an engine that does not render, without fetching the page', async () => {
    let fetched = 0;
    const http: PageEngine = {
      row: engineRow(EngineId.http),
      fetchPage: async () => {
        fetched++;
        throw new Error('not reached');
      },
      close: async () => undefined,
    };
    const result = await new CrawlPageHandler(http, proxies, extraction).handle({ ...payload, actions: [{ type: 'scrape' }] });
    expect(result).toMatchObject({ ok: false, error: { code: ErrorCode.INVALID_PARAMETER, message: 'actions need a browser engine, not http' } });
    expect(fetched).toBe(0);
  });
});

describe('CrawlPageHandler and a host gap', () => {
  const spaced = { ...payload, spacing: [{ key: 'host:site.example', intervalMs: 450 }, { key: 'crawl:c1:site.example', intervalMs: 900 }] };
  const recording = (events: string[]): PageEngine => ({
    row: engineRow(EngineId.http),
    fetchPage: async () => {
      events.push('fetch');
      throw new TrawlError(ErrorCode.CONNECTION_FAILED, 'The connection failed (ECONNREFUSED)', 'permanent');
    },
    close: async () => undefined,
  });

  it('takes every turn of the page at once, then sends the request', async () => {
    const events: string[] = [];
    const pacer = {
      waitTurns: async (turns: ReadonlyArray<{ key: string; intervalMs: number }>) => (events.push(`turns ${JSON.stringify(turns)}`), true),
    };
    await new CrawlPageHandler(recording(events), proxies, extraction, pacer).handle(spaced);
    expect(events).toEqual([`turns ${JSON.stringify([{ key: 'host:site.example', intervalMs: 450 }, { key: 'crawl:c1:site.example', intervalMs: 900 }])}`, 'fetch']);
  });

  it('leaves the fetch its part of a short budget: the turn may wait at most until half of it', async () => {
    const waits: number[] = [];
    const pacer = { waitTurns: async (_turns: unknown, deadline: number) => (waits.push(deadline - Date.now()), true) };
    await new CrawlPageHandler(recording([]), proxies, extraction, pacer).handle({ ...spaced, timeoutMs: 400 });
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(150);
    expect(waits[0]).toBeLessThanOrEqual(200);
  });

  it('fails the page as a timeout, unsent, when its turn would come too late for its budget', async () => {
    const events: string[] = [];
    const result = await new CrawlPageHandler(recording(events), proxies, extraction, { waitTurns: async () => false }).handle(spaced);
    expect(result).toMatchObject({ ok: false, url: payload.url, error: { code: ErrorCode.TIMEOUT } });
    expect(events).toEqual([]);
  });
});
