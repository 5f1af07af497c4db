/**
 * A crawl's counters (discovered, failed, skipped) in group commit (#platform/group-commit): while one UPDATE of a
 * crawl's row is in flight, the next increments for that crawl add up and go together in the following one — under
 * load N visits' counts cost one statement and one turn of the row lock (which every stored page of the crawl takes
 * too) instead of N. Each caller still waits until its increment is committed.
 */
import type { CrawlsRepository } from '#db';
import { GroupCommit } from '#platform/group-commit.js';

export type CrawlCounts = { discovered?: number; failed?: number; skipped?: number };

export class CrawlCountBatches {
  private readonly commits: GroupCommit<CrawlCounts, undefined>;

  constructor(repo: Pick<CrawlsRepository, 'addCounts'>) {
    this.commits = new GroupCommit(async (crawlId, items) => {
      const sum = (name: keyof CrawlCounts) => items.reduce((total, counts) => total + (counts[name] ?? 0), 0);
      await repo.addCounts(crawlId, { discovered: sum('discovered'), failed: sum('failed'), skipped: sum('skipped') });
      return items.map(() => undefined);
    });
  }

  add(crawlId: string, counts: CrawlCounts): Promise<void> {
    if (!counts.discovered && !counts.failed && !counts.skipped) return Promise.resolve();
    return this.commits.add(crawlId, counts);
  }
}
