/**
 * `/search` auto-crawling: every result of the fetched pages crawled through the crawl queue on the plain-HTTP engine,
 * at most `concurrency` in flight, each with its own budget and all under one deadline. A result that fails, times
 * out or is still queued when the deadline passes carries `error` (the search still succeeds); what finished in time
 * carries its content. Counts the crawls that succeeded (each costs what a `/crawl` URL over HTTP costs).
 */
import type { CallContext } from '#billing';
import {
  JobName,
  type CrawlPagePayload,
  type DeviceKind,
  type OutputFormats,
  type PageChunks,
  type PageChunksRequest,
  type SearchResponsePage,
  type SearchResultItem,
} from '#contracts';
import { selectEngine } from '#contracts';
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
  /** Each result's best chunks for the query (put together by the caller: see `chunks()`). */
  chunks?: PageChunksRequest;
}

/**
 * A call's auto-crawl. `add` queues a page's results as soon as the page is in (page 1's results crawl while page 2
 * is fetched); `finish(deadline)` sets the one deadline and resolves, with the number of successful crawls, when
 * every queued result has finished, failed or been cut off by it.
 */
export class AutoCrawl {
  private readonly queue: SearchResultItem[] = [];
  private readonly lanes = new Set<Promise<void>>();
  /** Until `finish`, only the call's own deadline bounds a crawl (each also has its own budget). */
  private deadline: number;
  private succeeded = 0;
  /** Every result queued, in result order, with the chunks its crawl brought back. */
  private readonly taken: Array<{ item: SearchResultItem; chunks?: PageChunks }> = [];

  constructor(
    private readonly dispatcher: Pick<JobDispatcher, 'runAll'>,
    private readonly call: CallContext,
    private readonly options: AutoCrawlOptions,
  ) {
    this.deadline = call.deadline - 250;
  }

  add(page: SearchResponsePage): void {
    page.search_results.forEach((item, i) => {
      if (i < AUTO_CRAWL_MAX_PER_PAGE) {
        this.queue.push(item);
        this.taken.push({ item });
      } else item.error = `NOT_CRAWLED: auto-crawling takes the first ${AUTO_CRAWL_MAX_PER_PAGE} results of a page`;
    });
    // A lane takes its first item as it starts, so count the lanes to open before opening any.
    const open = Math.min(this.options.concurrency - this.lanes.size, this.queue.length);
    for (let i = 0; i < open; i++) {
      const lane: Promise<void> = this.lane().finally(() => this.lanes.delete(lane));
      this.lanes.add(lane);
    }
  }

  async finish(deadline: number): Promise<number> {
    this.deadline = Math.min(this.deadline, deadline);
    while (this.lanes.size) await Promise.all([...this.lanes]);
    return this.succeeded;
  }

  /** After `finish`: the results that crawled, in result order, each with its candidate chunks (if the worker made any). */
  chunks(): Array<{ item: SearchResultItem; chunks?: PageChunks }> {
    return this.taken.filter(({ item }) => item.error === undefined);
  }

  private async lane(): Promise<void> {
    const queue = selectEngine({}).queue;
    for (let item = this.queue.shift(); item; item = this.queue.shift()) {
      const now = Date.now();
      if (now >= this.deadline) {
        item.error = 'TIMEOUT: the auto-crawl deadline passed before this result was crawled';
        continue;
      }
      const payload: CrawlPagePayload = {
        callId: this.call.callId,
        accountId: this.call.principal.accountId,
        url: item.link,
        formats: this.options.formats,
        device: this.options.device,
        ...(this.options.geolocation ? { geolocation: this.options.geolocation } : {}),
        ...(this.options.chunks ? { chunks: this.options.chunks } : {}),
        timeoutMs: Math.max(1, Math.min(this.options.timeoutMs, this.deadline - now)),
      };
      const wait = Math.min(this.deadline, now + this.options.timeoutMs + WAIT_MARGIN_MS);
      try {
        const [outcome] = await this.dispatcher.runAll(queue, JobName.crawlPage, [payload], wait);
        if (applyOutcome(item, outcome)) {
          this.succeeded++;
          const entry = this.taken.find((t) => t.item === item);
          if (entry && outcome.ok && outcome.result.ok) entry.chunks = outcome.result.chunks;
        }
      } catch (error) {
        // The queue itself failed (Redis): this result has no content; the search goes on.
        item.error = `INTERNAL: the crawl could not be queued (${error instanceof Error ? error.message : String(error)})`;
      }
    }
  }
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
