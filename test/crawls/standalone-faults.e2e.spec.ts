/**
 * A site crawl in `npm start`'s process, whose pages its own HTTP worker runs without the queue (the local lane,
 * #queue/local-lane.ts): SIGKILL the process with pages in its hands and start another — the crawl completes with
 * every page a correct crawler stores exactly once in its results, the ledger exact (credits charged = stored pages,
 * failures charged nothing, no reservation left open), and no page of it ever went through the queue.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { startCrawlSite, type CrawlSite } from '#bench/support/crawl-site.js';
import { JobName } from '#contracts';
import { pollUntil } from '../support/poll.js';
import { CrawlDeployment } from './support/deployment.js';
import { crawlWholeSite, expectCrawledOnce } from './support/exactly-once.js';

jest.setTimeout(150_000);

const MAX_DEPTH = 5;
let site: CrawlSite;
let trawl: CrawlDeployment;

beforeAll(async () => {
  site = await startCrawlSite({ hosts: 2, pagesPerHost: 50, crawlDelaySeconds: null, trap: false, hugePageBytes: 0, latencyMs: 50 });
  trawl = await CrawlDeployment.create('standalone-faults', {
    STANDALONE_WORKERS: 'http',
    CRAWL_HOST_MAX_INFLIGHT: '3',
    CRAWL_HOST_MIN_GAP_MS: '0',
    // A page's budget, hence a claimed URL's lease (budget + 30 s): the killed process's URLs come back after it.
    CRAWL_TIMEOUT_MS: '3000',
    // The killed process's account slots are free again soon.
    CONCURRENCY_LEASE_MS: '6000',
    REQUEST_DEADLINE_MS: '10000',
    RESERVATION_TTL_MS: '70000',
    RECONCILE_INTERVAL_MS: '1000',
  });
  await trawl.start('standalone-0');
});

afterAll(async () => {
  await trawl?.close();
  await site?.close();
});

/** Names of the jobs the HTTP queue was ever given (BullMQ's `added` events). */
async function queuedJobNames(): Promise<string[]> {
  const events = await trawl.probe.xrange(`${trawl.prefix}:trawl-http:events`, '-', '+');
  return events.flatMap(([, f]) => {
    const fields = new Map(Array.from({ length: f.length / 2 }, (_, i) => [f[2 * i]!, f[2 * i + 1]!]));
    return fields.get('event') === 'added' ? [fields.get('name')!] : [];
  });
}

describe('a site crawl in the standalone process', () => {
  it('completes with every page once and an exact ledger after the process dies with pages in its hands', async () => {
    const { account, expected, id, stored: done } = await crawlWholeSite(trawl, site, MAX_DEPTH, 100);
    await pollUntil(async () => (await done()) >= 20, '20 pages stored', 60_000, 100);
    await pollUntil(async () => (await trawl.running(id)) >= 2, 'URLs claimed by the process');
    await trawl.kill('standalone-0');
    await trawl.start('standalone-1');

    await expectCrawledOnce(trawl, account, id, expected);

    // The pages ran in the process's own worker: the queue carried robots.txt fetches, never a page.
    const names = await queuedJobNames();
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((n) => n === JobName.crawlPage)).toEqual([]);
  });
});
