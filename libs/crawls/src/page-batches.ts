/**
 * A crawl's page stores in group commit (#platform/group-commit): while one store of a crawl's pages is in flight,
 * the next pages of that crawl queue up and go together in the following statement — under load N pages cost one
 * statement, one commit and one turn of the crawl row's lock (which orders the pages' ids) instead of N. Each
 * caller still waits until its page is committed, and gets its own outcome.
 */
import type { CrawlsRepository, NewCrawlPage } from '#db';
import { GroupCommit } from '#platform/group-commit.js';
import type { CrawlCountBatches } from './crawl-counts.js';

export type StoreOutcome = 'new' | 'again' | 'duplicate';

export class PageStoreBatches {
  private readonly commits: GroupCommit<NewCrawlPage, StoreOutcome>;

  /** `counts`: the crawl's discovered URLs not written yet go with its pages. */
  constructor(repo: Pick<CrawlsRepository, 'storePages'>, counts: Pick<CrawlCountBatches, 'take' | 'giveBack'>, lingerMs = 0) {
    this.commits = new GroupCommit(
      async (crawlId, pages) => {
        const discovered = counts.take(crawlId);
        try {
          return await repo.storePages(crawlId, pages, discovered);
        } catch (error) {
          counts.giveBack(crawlId, discovered);
          throw error;
        }
      },
      {
        maxBatch: 50,
        lingerMs,
        // The same store twice in one batch (its visit retried by this process after a lost lease): the first stores,
        // the later ones find it stored by their reservation, as they would one by one.
        repeats: { identity: (page) => `${page.urlKey}\n${page.requestId}`, repeat: () => 'again' },
      },
    );
  }

  store(page: NewCrawlPage): Promise<StoreOutcome> {
    return this.commits.add(page.jobId, page);
  }
}
