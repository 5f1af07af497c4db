/**
 * `/search` auto-crawling: every result of the fetched pages crawled through the crawl queue on the plain-HTTP engine,
 * at most `concurrency` in flight, each with its own budget and all under one deadline. A result that fails, times
 * out or is still queued when the deadline passes carries `error` (the search still succeeds); what finished in time
 * carries its content. Returns how many crawls succeeded (each costs what a `/crawl` URL over HTTP costs).
 */
import type { CallContext } from '#billing';
import { JobName, type CrawlPagePayload, type DeviceKind, type OutputFormats, type SearchPageBody, type SearchResultItem } from '#contracts';
import { selectEngine } from '#engines/engine-table.js';
import type { JobDispatcher, JobOutcome } from '#queue';
import { pageContent } from './search-page.js';

/** Results crawled per page at most (Bing's maximum `count`); the reservation covers this many per page. */
export const AUTO_CRAWL_MAX_PER_PAGE = 50;
/** Headroom between a crawl's own budget and how long the gateway waits for it (queueing, formatting). */
const WAIT_MARGIN_MS = 1_000;

export interface AutoCrawlOptions {
  formats: OutputFormats;
  device: DeviceKind;
  geolocation?: string;
  concurrency: number;
  /** Each result's budget in the worker. */
  timeoutMs: number;
  /** Epoch ms by which every crawl is done or abandoned. */
  deadline: number;
}

export async function autoCrawl(
  dispatcher: Pick<JobDispatcher, 'runAll'>, call: CallContext, pages: SearchPageBody[], options: AutoCrawlOptions,
): Promise<number> {
  const queue = selectEngine({}).queue;
  const items: SearchResultItem[] = [];
  for (const page of pages) {
    page.search_results.forEach((item, i) => {
      if (i < AUTO_CRAWL_MAX_PER_PAGE) items.push(item);
      else item.error = `NOT_CRAWLED: auto-crawling takes the first ${AUTO_CRAWL_MAX_PER_PAGE} results of a page`;
    });
  }
  let next = 0;
  let succeeded = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++];
      const now = Date.now();
      if (now >= options.deadline) {
        item.error = 'TIMEOUT: the auto-crawl deadline passed before this result was crawled';
        continue;
      }
      const payload: CrawlPagePayload = {
        callId: call.callId,
        url: item.link,
        formats: options.formats,
        device: options.device,
        ...(options.geolocation ? { geolocation: options.geolocation } : {}),
        timeoutMs: Math.max(1, Math.min(options.timeoutMs, options.deadline - now)),
      };
      const wait = Math.min(options.deadline, now + options.timeoutMs + WAIT_MARGIN_MS);
      const [outcome] = await dispatcher.runAll(queue, JobName.crawlPage, [payload], wait);
      if (applyOutcome(item, outcome)) succeeded++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, items.length) }, lane));
  return succeeded;
}

/** Puts a crawl's content (or its error) on the result; true when the crawl succeeded. */
function applyOutcome(item: SearchResultItem, outcome: JobOutcome<typeof JobName.crawlPage>): boolean {
  if (!outcome.ok) {
    item.error = `${outcome.error.code}: ${outcome.error.message}`;
    return false;
  }
  const result = outcome.result;
  if (result.status_code !== undefined) item.status_code = result.status_code;
  if (!result.ok) {
    item.error = `${result.error.code}: ${result.error.message}`;
    return false;
  }
  item.page_content = pageContent(result);
  if (result.metadata) item.metadata = result.metadata;
  return true;
}
