/**
 * A site crawl survives the death of any process (issue #34): three hosts of the generated fixture site crawled by a
 * gateway and two worker-http processes from the build, on a private Redis with AOF and a fresh database. While it
 * runs: SIGKILL a worker-http with page jobs in flight (a new one starts), SIGKILL the gateway with URLs claimed (a
 * new one starts; the killed one's URLs come back when their leases expire), SIGKILL Redis with URLs claimed and
 * start it again on its AOF. The crawl must complete with every page a correct crawler stores exactly once in its
 * results (read by cursor), the ledger exact — credits charged = stored pages × 1, failures charged nothing, no
 * reservation left open — and nothing left in the frontier. Its frontier is bounded to 20 URLs in Redis, so URLs are
 * on their way to Postgres and back through every fault.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { startCrawlSite, type CrawlSite } from '#bench/support/crawl-site.js';
import { pollUntil } from '../support/poll.js';
import { jobsIn } from '../reliability/support/trawl-invariants.js';
import { CrawlDeployment } from './support/deployment.js';
import { crawlWholeSite, expectCrawledOnce } from './support/exactly-once.js';

jest.setTimeout(150_000);

const MAX_DEPTH = 5;
let site: CrawlSite;
let trawl: CrawlDeployment;
const timeline: string[] = [];
const began = Date.now();
const note = (event: string) => timeline.push(`${((Date.now() - began) / 1000).toFixed(1)}s ${event}`);

beforeAll(async () => {
  site = await startCrawlSite({ hosts: 3, pagesPerHost: 50, crawlDelaySeconds: null, trap: false, hugePageBytes: 0, latencyMs: 50 });
  trawl = await CrawlDeployment.create('crawl-faults', {
    CRAWL_HOST_MAX_INFLIGHT: '3',
    CRAWL_HOST_MIN_GAP_MS: '0',
    // A page job's budget, hence a claimed URL's lease (budget + 30 s): a killed gateway's URLs come back after it.
    CRAWL_TIMEOUT_MS: '3000',
    // A killed worker's jobs are taken back within a few seconds.
    WORKER_LOCK_MS: '3000',
    JOB_BACKOFF_MS: '200',
    // A killed gateway's account slots are free again soon.
    CONCURRENCY_LEASE_MS: '6000',
    REQUEST_DEADLINE_MS: '10000',
    RESERVATION_TTL_MS: '70000',
    RECONCILE_INTERVAL_MS: '1000',
    // The frontier past 20 URLs waits in Postgres: the faults find URLs on their way there and back.
    CRAWL_FRONTIER_REDIS_URLS: '20',
  });
  await Promise.all([trawl.start('gateway-0'), trawl.start('worker-http-0'), trawl.start('worker-http-1')]);
  note('deployment up');
}, 90_000);

afterAll(async () => {
  await trawl?.close();
  await site?.close();
}, 30_000);

const spilled = async (id: string) =>
  Number((await trawl.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM crawl_frontier WHERE job_id = $1`, [id])).rows[0].n);

describe('a site crawl through faults', () => {
  it('completes with every page once and an exact ledger after a worker, the gateway and Redis die mid-crawl', async () => {
    // ~5 pages a second per host: the crawl runs long enough for three faults.
    const { account, expected, id, stored: done } = await crawlWholeSite(trawl, site, MAX_DEPTH, 200);
    const atLeast = (n: number, what: string) => pollUntil(async () => (await done()) >= n, `${n} pages stored ${what}`, 60_000, 100);

    // The frontier outgrew its bound in Redis: URLs wait in Postgres.
    await pollUntil(async () => (await spilled(id)) > 0, 'URLs of the crawl in Postgres', 60_000, 50);

    // 1. A worker-http dies with page jobs in flight: the jobs stall and the other worker runs them again.
    await atLeast(20, 'before the worker kill');
    await pollUntil(async () => (await jobsIn(trawl.probe, trawl.prefix, 'trawl-http', 'active')) >= 2, 'page jobs in flight');
    note(`SIGKILL worker-http-0 at ${await done()} pages`);
    await trawl.kill('worker-http-0');
    const respawned = trawl.start('worker-http-0');

    // 2. The gateway — the only coordinator — dies with URLs claimed; a new one takes the crawl over.
    await atLeast(50, 'before the gateway kill');
    await pollUntil(async () => (await trawl.running(id)) >= 2, 'URLs claimed by the gateway');
    note(`SIGKILL gateway-0 at ${await done()} pages, ${await trawl.running(id)} URLs claimed`);
    await trawl.kill('gateway-0');
    await Promise.all([trawl.start('gateway-1'), respawned]);
    note('gateway-1 and worker-http-0 up');

    // 3. Redis dies with URLs claimed and comes back from its AOF.
    const before = await done();
    await atLeast(before + 15, 'after the gateway kill');
    await pollUntil(async () => (await trawl.running(id)) >= 1, 'URLs claimed before the Redis kill');
    note(`SIGKILL Redis at ${await done()} pages`);
    await trawl.redis.kill();
    await trawl.redis.start();
    note('Redis up');

    const { finished, pages } = await expectCrawledOnce(trawl, account, id, expected);
    note(`crawl ${finished.status}: ${JSON.stringify(finished.counts)}`);
    expect(finished.counts.failed).toBeGreaterThan(0);
    const balance = await trawl.db.query<{ balance: string }>(`SELECT balance FROM accounts WHERE id = $1`, [account.accountId]);
    expect(Number(balance.rows[0].balance)).toBe(100_000 - pages.length);

    // Nothing of the crawl is left in the frontier, nor in the queues.
    expect(await trawl.probe.keys(`${trawl.prefix}:crawl:{${id}}:*`)).toEqual([`${trawl.prefix}:crawl:{${id}}:meta`]);
    expect(await jobsIn(trawl.probe, trawl.prefix, 'trawl-http', 'active')).toBe(0);
    expect(await spilled(id)).toBe(0);
    console.log(`crawl through faults: ${JSON.stringify({ pages: pages.length, counts: finished.counts, timeline })}`);
  });
});
