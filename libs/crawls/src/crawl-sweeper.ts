/**
 * What no single job can be trusted to do, run every few seconds by every gateway (each step is idempotent):
 * finish a crawl whose frontier drained while the process that drained it died; give a crawl whose URLs stopped
 * finishing its lost jobs back (admitted in Redis, never enqueued, when a process died between the two); add a
 * lost seed job again; fail a crawl whose frontier Redis lost (restarted without its data); delete crawls whose
 * retention has passed.
 */
import { ErrorCode } from '#contracts';
import type { CrawlsRepository } from '#db';
import { metrics } from '#metrics';
import type { CrawlCoordinator } from './coordinator.js';
import type { FrontierStore } from './frontier-store.js';

/** A crawl none of whose URLs finished for this long is checked for jobs a crash lost. */
const STALL_MS = 60_000;

export class CrawlSweeper {
  constructor(
    private readonly repo: CrawlsRepository,
    private readonly store: FrontierStore,
    private readonly coordinator: CrawlCoordinator,
    private readonly onError: (error: unknown) => void,
  ) {}

  async run(now = Date.now()): Promise<{ completed: number; requeued: number; failed: number; deleted: number }> {
    const out = { completed: 0, requeued: 0, failed: 0, deleted: 0 };
    let pending = 0;
    for (const crawl of await this.repo.running()) {
      try {
        const progress = await this.store.progress(crawl.id);
        if (!progress) {
          if (await this.coordinator.stop(crawl.id, 'failed', `${ErrorCode.INTERNAL}: the crawl's frontier was lost (Redis restarted without its data)`)) out.failed++;
          continue;
        }
        pending += progress.pending;
        const stale = now - progress.touched > STALL_MS;
        if (progress.pending === 0 && (progress.seeded || progress.stopped)) {
          await this.coordinator.complete(crawl.id);
          out.completed++;
        } else if (!progress.seeded && !progress.stopped && stale && (await this.coordinator.seedJobLost(crawl.id))) {
          await this.coordinator.enqueueSeed(crawl.id);
          out.requeued++;
        } else if (progress.pending > 0 && stale) {
          out.requeued += await this.coordinator.requeueLost(crawl.id);
          await this.store.touch(crawl.id);
        }
      } catch (error) {
        this.onError(error);
      }
    }
    metrics.crawlFrontierPending.set(pending);
    const expired = await this.repo.expired(500);
    for (const id of expired) await this.store.clear(id);
    out.deleted = await this.repo.delete(expired);
    return out;
  }
}
