/**
 * What no single process can be trusted to do, run every few seconds by every gateway (each step is idempotent):
 * finish a crawl whose frontier drained while the process that drained it died; list a running crawl as active
 * again if it is not; add a lost seed job again; fail a crawl whose frontier Redis lost (restarted without its
 * data); delete crawls whose retention has passed. (A URL whose process died is claimed again when its lease
 * expires: frontier-store.ts.)
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
          // A crawl just written is given its frontier a moment later (crawl-jobs.service.ts: the row, then Redis):
          // one read in between is not a frontier Redis lost.
          if (crawl.status === 'queued' && now - crawl.createdAt.getTime() < STALL_MS) continue;
          if (await this.coordinator.stop(crawl.id, 'failed', `${ErrorCode.INTERNAL}: the crawl's frontier was lost (Redis restarted without its data)`)) out.failed++;
          continue;
        }
        pending += progress.pending;
        const stale = now - progress.touched > STALL_MS;
        if ((progress.seeded && progress.pending === 0) || (progress.stopped && progress.running === 0)) {
          await this.coordinator.complete(crawl.id);
          out.completed++;
        } else if (!progress.seeded && !progress.stopped && stale && (await this.coordinator.seedJobLost(crawl.id))) {
          await this.coordinator.enqueueSeed(crawl.id);
          out.requeued++;
        } else if (!(await this.store.isActive(crawl.id))) {
          await this.store.wake(crawl.id);
          out.requeued++;
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
