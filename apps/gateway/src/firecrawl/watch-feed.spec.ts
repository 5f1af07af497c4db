/** JobFeed with a fake job: message bounds, a catchup larger than one message, the idle close, a job gone. */
import { describe, expect, it } from '@jest/globals';
import type { CrawlJobSummary } from '#contracts';
import { TrawlError, ErrorCode } from '#contracts';
import type { FirecrawlDocument } from '#firecrawl';
import { pollUntil } from '#test/support/poll.js';
import { JobFeed, type FeedReader, type WatchPeer } from './watch-feed.js';

const summary = (status: CrawlJobSummary['status'], done: number): CrawlJobSummary => ({
  id: 'job', kind: 'site', status, counts: { discovered: done, done, failed: 0, skipped: 0, pending: 0 }, credits: done,
  created_at: '2026-01-01T00:00:00.000Z', expires_at: '2026-01-02T00:00:00.000Z',
});

const doc = (i: number, bytes = 10): FirecrawlDocument => ({ markdown: 'x'.repeat(bytes), metadata: { sourceURL: `https://site.test/${i}` } }) as FirecrawlDocument;

/** A job whose stored pages are `docs` (cursor: the count read), with the status `status()` says. */
function job(docs: FirecrawlDocument[], status: () => CrawlJobSummary['status']): FeedReader {
  return async (cursor, limit) => {
    const from = Number(cursor);
    const documents = docs.slice(from, from + limit);
    return { summary: summary(status(), docs.length), documents, cursor: String(from + documents.length) };
  };
}

function peer() {
  const messages: Array<{ type: string; data?: any; error?: string }> = [];
  let closed: { code: number; reason: string } | undefined;
  const p: WatchPeer = {
    send: (text) => (closed ? false : (messages.push(JSON.parse(text) as (typeof messages)[number]), true)),
    close: (code, reason) => void (closed ??= { code, reason }),
  };
  return { p, messages, closed: () => closed };
}

const settings = { pollMs: 5, idleMs: 60_000, maxMessageBytes: 8192, batch: 3 };

describe('JobFeed', () => {
  it('splits a catchup larger than one message into a scraping catchup, documents, then the final message', async () => {
    const docs = Array.from({ length: 7 }, (_, i) => doc(i, 1500));
    const w = peer();
    const feed = new JobFeed(job(docs, () => 'completed'), settings, () => undefined);
    feed.add(w.p);
    await pollUntil(() => w.closed(), 'the watcher to be closed');
    expect(w.closed()).toEqual({ code: 1000, reason: 'done' });
    expect(w.messages[0]).toMatchObject({ type: 'catchup', data: { status: 'scraping' } });
    const inCatchup = w.messages[0].data.data.length;
    expect(inCatchup).toBeGreaterThan(0);
    expect(inCatchup).toBeLessThan(7);
    expect(w.messages.slice(1, -1).map((m) => m.type)).toEqual(Array(7 - inCatchup).fill('document'));
    expect(w.messages[w.messages.length - 1]).toMatchObject({ type: 'done', data: { status: 'completed', completed: 7, total: 7 } });
    const urls = [...w.messages[0].data.data, ...w.messages.slice(1, -1).map((m) => m.data)].map((d: FirecrawlDocument) => d.metadata?.sourceURL);
    expect(urls).toEqual(docs.map((d) => d.metadata?.sourceURL));
  });

  it('sends a document over the message limit without its content, saying so', async () => {
    let status: CrawlJobSummary['status'] = 'running';
    const docs = [doc(1, 20_000)];
    const w = peer();
    const feed = new JobFeed(job(docs, () => status), settings, () => undefined);
    feed.add(w.p);
    await pollUntil(() => w.messages.length >= 2, 'the document');
    expect(w.messages[1].data.markdown).toBeUndefined();
    expect(w.messages[1].data.metadata).toMatchObject({ sourceURL: 'https://site.test/1', error: expect.stringContaining('message limit') });
    status = 'failed';
    await pollUntil(() => w.closed(), 'the watcher to be closed');
    expect(w.messages[w.messages.length - 1]).toMatchObject({ type: 'catchup', data: { status: 'failed', data: [] } });
  });

  it('closes its watchers 1001 when no page came for idleMs, and calls onEmpty', async () => {
    let clock = 0;
    let emptied = false;
    const w = peer();
    const feed = new JobFeed(job([], () => 'running'), { ...settings, idleMs: 1000 }, () => (emptied = true), () => clock);
    feed.add(w.p);
    await pollUntil(() => w.messages.length, 'the catchup');
    expect(w.closed()).toBeUndefined();
    clock = 1000;
    await pollUntil(() => w.closed(), 'the idle close');
    expect(w.closed()?.code).toBe(1001);
    expect(emptied).toBe(true);
  });

  it('closes 1008 with an error message when the job is gone', async () => {
    const w = peer();
    const feed = new JobFeed(async () => Promise.reject(new TrawlError(ErrorCode.NOT_FOUND, 'No crawl')), settings, () => undefined);
    feed.add(w.p);
    await pollUntil(() => w.closed(), 'the close');
    expect(w.closed()).toEqual({ code: 1008, reason: 'Job not found' });
    expect(w.messages).toEqual([{ type: 'error', error: 'Job not found' }]);
  });
});
