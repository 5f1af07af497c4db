/**
 * Group commit for a crawl's counters (discovered, failed, skipped). While one UPDATE of a crawl's row is in flight,
 * the next increments for that crawl add up and go together in the following one: under load N visits' counts cost
 * one statement and one turn of the row lock (the lock every stored page of the crawl takes too) instead of N. Each
 * caller still waits until its increment is committed, so a count is never reported before it is written.
 */
import type { CrawlsRepository } from '#db';

export type CrawlCounts = { discovered?: number; failed?: number; skipped?: number };

interface Waiting {
  counts: Required<CrawlCounts>;
  settled: Array<{ resolve: () => void; reject: (error: unknown) => void }>;
}

export class CrawlCountBatches {
  /** Per crawl: the increments gathered for its next statement (present while a statement is in flight). */
  private readonly next = new Map<string, Waiting>();

  constructor(private readonly repo: Pick<CrawlsRepository, 'addCounts'>) {}

  add(crawlId: string, counts: CrawlCounts): Promise<void> {
    if (!counts.discovered && !counts.failed && !counts.skipped) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiting = this.next.get(crawlId);
      if (waiting) {
        waiting.counts.discovered += counts.discovered ?? 0;
        waiting.counts.failed += counts.failed ?? 0;
        waiting.counts.skipped += counts.skipped ?? 0;
        waiting.settled.push({ resolve, reject });
        return;
      }
      this.next.set(crawlId, { counts: { discovered: 0, failed: 0, skipped: 0 }, settled: [] });
      void this.drain(crawlId, { discovered: counts.discovered ?? 0, failed: counts.failed ?? 0, skipped: counts.skipped ?? 0 }, [{ resolve, reject }]);
    });
  }

  private async drain(crawlId: string, counts: Required<CrawlCounts>, settled: Waiting['settled']): Promise<void> {
    for (;;) {
      try {
        await this.repo.addCounts(crawlId, counts);
        for (const s of settled) s.resolve();
      } catch (error) {
        for (const s of settled) s.reject(error);
      }
      const waiting = this.next.get(crawlId)!;
      if (waiting.settled.length === 0) {
        this.next.delete(crawlId);
        return;
      }
      this.next.set(crawlId, { counts: { discovered: 0, failed: 0, skipped: 0 }, settled: [] });
      ({ counts, settled } = waiting);
    }
  }
}
