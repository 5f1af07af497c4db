/**
 * A crawl's counters (discovered, failed, skipped) and the URLs it did not store (its error rows) in group commit
 * (#platform/group-commit): while one statement on a crawl's row is in flight, the next increments and error rows for
 * that crawl add up and go together in the following one — under load N visits' outcomes cost one statement and one
 * turn of the row lock (which every stored page of the crawl takes too) instead of N. Each caller still waits until
 * its increment or row is committed.
 *
 * Discovered URLs are counted later: they add up in memory and ride on the crawl's next write of its row (a page
 * store takes them, `take`), or go on their own within `LATER_MS`. They are only a progress figure while the crawl
 * runs (the frontier in Redis is what decides its work); a process that dies loses at most that much of them, and
 * the crawl's final count is the frontier's own (the coordinator's `complete`).
 */
import type { CrawlCountIncrements, CrawlErrorRecord, CrawlsRepository } from '#db';
import { GroupCommit } from '#platform/group-commit.js';

export type CrawlCounts = CrawlCountIncrements;

/** One visit's outcome to write: increments, or a URL not stored (counted by the repository). */
type Tally = { counts: CrawlCounts; error?: CrawlErrorRecord };

/** The longest discovered URLs wait in memory before they are written on their own. */
const LATER_MS = 200;

export class CrawlCountBatches {
  private readonly commits: GroupCommit<Tally, undefined>;
  private readonly later = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    repo: Pick<CrawlsRepository, 'addCounts'>,
    private readonly onError: (error: unknown) => void = () => undefined,
    lingerMs = 0,
  ) {
    this.commits = new GroupCommit(async (crawlId, items) => {
      const sum = (name: keyof CrawlCounts) => items.reduce((total, { counts }) => total + (counts[name] ?? 0), 0);
      const errors = items.flatMap(({ error }) => (error ? [error] : []));
      const discovered = this.take(crawlId);
      try {
        await repo.addCounts(crawlId, { discovered: sum('discovered') + discovered, failed: sum('failed'), skipped: sum('skipped') }, errors);
      } catch (error) {
        this.giveBack(crawlId, discovered);
        throw error;
      }
      return items.map(() => undefined);
    }, { lingerMs });
  }

  add(crawlId: string, counts: CrawlCounts): Promise<void> {
    if (!counts.discovered && !counts.failed && !counts.skipped) return Promise.resolve();
    return this.commits.add(crawlId, { counts });
  }

  /** A URL the crawl did not store, written with the crawl's next counts (a failure counts failed, a refusal skipped). */
  recordError(crawlId: string, error: CrawlErrorRecord): Promise<void> {
    return this.commits.add(crawlId, { counts: {}, error });
  }

  /** Discovered URLs, written with the crawl's next write of its row or within LATER_MS. */
  discoveredLater(crawlId: string, count: number): void {
    if (count <= 0) return;
    this.later.set(crawlId, (this.later.get(crawlId) ?? 0) + count);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, LATER_MS).unref();
  }

  /** The crawl's discovered URLs not written yet, for a statement that writes them (`giveBack` if it failed). */
  take(crawlId: string): number {
    const count = this.later.get(crawlId) ?? 0;
    this.later.delete(crawlId);
    return count;
  }

  giveBack(crawlId: string, count: number): void {
    if (count > 0) this.later.set(crawlId, (this.later.get(crawlId) ?? 0) + count);
  }

  /** Writes what waits: one crawl's (before it finishes), or every crawl's. */
  async flush(crawlId?: string): Promise<void> {
    const ids = crawlId === undefined ? [...this.later.keys()] : this.later.has(crawlId) ? [crawlId] : [];
    await Promise.all(
      ids.map(async (id) => {
        const discovered = this.take(id);
        if (discovered > 0) await this.add(id, { discovered }).catch((error: unknown) => (this.giveBack(id, discovered), this.onError(error)));
      }),
    );
  }
}

/** A crawl's counts as its readers see them. */
export interface ReportedCounts {
  discovered: number;
  done: number;
  failed: number;
  skipped: number;
  pending: number;
}

/**
 * The counts a crawl reports, so that discovered = done + failed + skipped + pending always holds: discovered is a
 * progress figure that may lag the outcomes while the crawl runs (it is written in batches), and a crawl that stopped
 * (its limit, a cancel, its credits) leaves URLs it admitted and never visited — those count as skipped.
 */
export function reportedCounts(row: { discovered: number; done: number; failed: number; skipped: number }, finished: boolean): ReportedCounts {
  const { done, failed } = row;
  const skipped = finished ? Math.max(row.skipped, row.discovered - done - failed) : row.skipped;
  const pending = finished ? 0 : Math.max(0, row.discovered - done - failed - skipped);
  return { discovered: done + failed + skipped + pending, done, failed, skipped, pending };
}
