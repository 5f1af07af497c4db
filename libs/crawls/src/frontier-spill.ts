/**
 * A crawl's frontier past its bound in Redis (CRAWL_FRONTIER_REDIS_URLS pending URLs) goes on in Postgres, so Redis
 * holds any crawl in memory its limit fixes (frontier-store.ts). The admit script puts such a URL on the crawl's spill
 * list, counted as spilled in the same step: it is never anywhere but in Redis or Postgres. From there:
 *
 *   flush   the list's head → Postgres (a hash already there is skipped) → the head dropped, if it is still that head:
 *           a process that dies between the two leaves the head for the next flush, which writes nothing twice;
 *   refill  when a claim finds fewer than half the bound pending: the list is flushed, then the rows after the crawl's
 *           cursor come back, in admission order, and the cursor moves past them in the same script (two processes
 *           refilling at once bring each row back once).
 *
 * The crawl finishes only when nothing is pending in Redis and nothing is spilled.
 */
import type { FrontierRepository } from '#db';
import type { FrontierStore } from './frontier-store.js';

/** Spill-list entries written to Postgres in one statement. */
const FLUSH_BATCH = 1000;
/**
 * How long a spill waits for others before it is written (`later`): one transaction for the URLs of many pages. A
 * flush per admission cost 26 % more Postgres CPU and 18 % more of Trawl's over a crawl (bench:site-crawl).
 */
const LINGER_MS = 200;

export class FrontierSpill {
  /** Flushes and refills running in this process, by crawl (one of each at a time; callers share it). */
  private readonly flushing = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private readonly refilling = new Map<string, Promise<number>>();
  /** Crawls whose spill list is to be written when the linger ends. */
  private readonly due = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: FrontierStore,
    private readonly repo: FrontierRepository,
    /** URLs brought back from Postgres at once: half the crawl's bound in Redis. */
    private readonly refillBatch: number,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /**
   * The crawl spilled URLs: its list is written within the linger, with whatever else spills meanwhile. Nothing is
   * at risk while it waits: the list is in Redis, and any process's flush or refill writes it.
   */
  later(crawlId: string): void {
    this.due.add(crawlId);
    this.timer ??= setTimeout(() => void this.flushDue(), LINGER_MS);
  }

  private async flushDue(): Promise<void> {
    this.timer = null;
    const crawls = [...this.due];
    this.due.clear();
    await Promise.all(crawls.map((crawlId) => this.flush(crawlId).catch(this.onError)));
  }

  /** Writes what is lingering now (a process stopping). */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    await this.flushDue();
    await Promise.allSettled([...this.flushing.values()]);
  }

  /** Writes the crawl's spill list to Postgres; a call while one runs has it run once more, and waits for that. */
  flush(crawlId: string): Promise<void> {
    const running = this.flushing.get(crawlId);
    if (running) {
      this.again.add(crawlId);
      return running;
    }
    const run = (async () => {
      do {
        this.again.delete(crawlId);
        await this.drain(crawlId);
      } while (this.again.has(crawlId));
    })().finally(() => this.flushing.delete(crawlId));
    this.flushing.set(crawlId, run);
    return run;
  }

  private async drain(crawlId: string): Promise<void> {
    for (;;) {
      const head = await this.store.spillHead(crawlId, FLUSH_BATCH);
      if (head.length === 0) return;
      await this.repo.append(crawlId, head);
      await this.store.trimSpill(crawlId, head[0]!.raw, head.length);
      if (head.length < FLUSH_BATCH) return;
    }
  }

  /** Brings the crawl's next URLs back from Postgres into Redis; how many came back. */
  refill(crawlId: string): Promise<number> {
    const running = this.refilling.get(crawlId);
    if (running) return running;
    const run = (async () => {
      await this.flush(crawlId);
      const { cursor, spilled } = await this.store.spillState(crawlId);
      if (spilled <= 0) return 0;
      const rows = await this.repo.after(crawlId, cursor, Math.min(spilled, this.refillBatch));
      return this.store.refill(crawlId, rows);
    })().finally(() => this.refilling.delete(crawlId));
    this.refilling.set(crawlId, run);
    return run;
  }

  /** A finished crawl's rows go (the crawl's deletion would take them with it, later). */
  async drop(crawlId: string): Promise<void> {
    await this.repo.drop(crawlId);
  }
}
