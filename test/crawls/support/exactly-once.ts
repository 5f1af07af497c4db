/**
 * What a site crawl through faults must end with: completed, every page a correct crawler stores exactly once in its
 * results (read by cursor), and the ledger exact — stored pages × 1 credit charged by as many reservations, failures
 * and duplicates charged nothing, no reservation left open.
 */
import { expect } from '@jest/globals';
import { urlKey } from '#frontier';
import { pollUntil } from '#test/support/poll.js';
import { chargedByAccount, ledgerViolations, openReservations } from '#test/reliability/support/trawl-invariants.js';
import type { CrawlSite } from '#bench/support/crawl-site.js';
import type { CrawlAnswer, CrawlDeployment, CrawlPage } from './deployment.js';

/**
 * A developer account's crawl of the whole fixture site (its hosts link to each other) to `maxDepth`, six pages at a
 * time, each host's pages `delayMs` apart; the URL keys a correct crawler stores, and how many it has stored so far.
 */
export async function crawlWholeSite(trawl: CrawlDeployment, site: CrawlSite, maxDepth: number, delayMs: number) {
  const account = await trawl.account('developer');
  const expected = site.expected({ maxDepth, allowExternal: true });
  const id = await trawl.startCrawl(account.apiKey, { url: `${site.hosts[0]}/`, max_depth: maxDepth, limit: 1000, allow_external_links: true, concurrency: 6, delay_ms: delayMs });
  const stored = async () => (await trawl.read(account.apiKey, id).catch(() => null))?.counts.done ?? 0;
  return { account, expected, id, stored };
}

export async function expectCrawledOnce(
  trawl: CrawlDeployment,
  account: { apiKey: string; accountId: string },
  id: string,
  expected: readonly string[],
): Promise<{ finished: CrawlAnswer; pages: CrawlPage[] }> {
  const finished = await trawl.finished(account.apiKey, id, 90_000);
  expect({ status: finished.status, error: finished.error }).toEqual({ status: 'completed', error: undefined });
  const pages = await trawl.pages(account.apiKey, id);
  const keys = pages.map((p) => urlKey(p.url, undefined, { ignoreQuery: false })!);
  expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  expect([...keys].sort()).toEqual([...expected].sort());
  expect(finished.counts.done).toBe(pages.length);

  await pollUntil(async () => (await openReservations(trawl.db)) === 0, 'every reservation closed', 80_000, 500);
  expect(await ledgerViolations(trawl.db)).toEqual({ ledgerNotBalance: [], negativeBalance: [], notOncePerRequest: [], badlyClosed: [], chargesNotBalance: [], logNotCharged: [] });
  expect((await chargedByAccount(trawl.db)).get(account.accountId)).toBe(pages.length);
  const { rows } = await trawl.db.query<{ charged: number }>(`SELECT count(*)::int AS charged FROM reservations WHERE account_id = $1 AND charged > 0`, [account.accountId]);
  expect(rows[0].charged).toBe(pages.length);
  expect(finished.credits).toBe(pages.length);
  return { finished, pages };
}
