/**
 * The Firecrawl watcher's admission and feeds: a connection to `/v2/crawl/{id}` (or `/v2/batch/scrape/{id}`) is
 * authenticated with the key it carries (the WebSocket subprotocol, as the SDK sends it), must watch a job of its
 * own account, and counts against the account's FIRECRAWL_WATCH_MAX_PER_ACCOUNT; then it joins the job's one feed
 * (JobFeed), shared by every connection watching that job in this process. Refusals are a message `{type:"error",
 * error}` and a close with a code and a reason.
 */
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { AuthService } from '#billing';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { TrawlError } from '#contracts';
import { CrawlJobsService } from '#crawls';
import { jobDocument } from './firecrawl-jobs.service.js';
import { CLOSE, JobFeed, type FeedSettings, type WatchPeer } from './watch-feed.js';

/** Firecrawl's own bound on a status page (10 MiB), for one message. */
const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
const POLL_MS = 1000;
const BATCH = 100;

export interface Watching {
  /** Call when the connection has closed. */
  leave(): void;
}

@Injectable()
export class FirecrawlWatchService implements OnApplicationShutdown {
  private readonly feeds = new Map<string, JobFeed>();
  private readonly perAccount = new Map<string, number>();
  private readonly settings: FeedSettings;

  constructor(
    private readonly auth: AuthService,
    private readonly crawls: CrawlJobsService,
    @Inject(TRAWL_CONFIG) private readonly config: TrawlConfig,
  ) {
    this.settings = { pollMs: POLL_MS, idleMs: config.FIRECRAWL_WATCH_IDLE_MS, maxMessageBytes: MAX_MESSAGE_BYTES, batch: BATCH };
  }

  get enabled(): boolean {
    return this.config.FIRECRAWL_WATCH_MAX_PER_ACCOUNT > 0;
  }

  /** Connections open now (all accounts). */
  get open(): number {
    let n = 0;
    for (const count of this.perAccount.values()) n += count;
    return n;
  }

  /** Jobs watched now: one feed (one poller) each, however many connections watch it. */
  get jobsWatched(): number {
    return this.feeds.size;
  }

  /** Admits `peer` to watch job `id` with `apiKey`, or refuses it (closed); undefined when refused. */
  async watch(apiKey: string | undefined, id: string, peer: WatchPeer): Promise<Watching | undefined> {
    let accountId: string;
    try {
      accountId = (await this.auth.authenticate(apiKey)).accountId;
    } catch (error) {
      if (!(error instanceof TrawlError)) throw error;
      return refuse(peer, CLOSE.unauthorized, `Unauthorized: ${error.message}`);
    }
    try {
      await this.crawls.own({ accountId }, id);
    } catch (error) {
      if (!(error instanceof TrawlError)) throw error;
      return refuse(peer, CLOSE.notFound, 'Job not found');
    }
    const held = this.perAccount.get(accountId) ?? 0;
    const max = this.config.FIRECRAWL_WATCH_MAX_PER_ACCOUNT;
    if (held >= max) return refuse(peer, CLOSE.tooMany, `Too many watchers: this account may hold ${max} open at once`);
    this.perAccount.set(accountId, held + 1);
    const feed = this.feedOf(accountId, id);
    feed.add(peer);
    let left = false;
    return {
      leave: () => {
        if (left) return;
        left = true;
        const count = (this.perAccount.get(accountId) ?? 1) - 1;
        if (count > 0) this.perAccount.set(accountId, count);
        else this.perAccount.delete(accountId);
        feed.remove(peer);
      },
    };
  }

  onApplicationShutdown(): void {
    for (const feed of [...this.feeds.values()]) feed.closeAll(CLOSE.idle, 'server shutting down');
  }

  private feedOf(accountId: string, id: string): JobFeed {
    const key = `${accountId}:${id}`;
    let feed = this.feeds.get(key);
    if (!feed) {
      const read = async (cursor: string, limit: number) => {
        const { summary, pages, cursor: next } = await this.crawls.pagesAfter({ accountId }, id, cursor, limit);
        return { summary, documents: pages.map(jobDocument), cursor: next };
      };
      const created = new JobFeed(read, this.settings, () => {
        if (this.feeds.get(key) === created) this.feeds.delete(key);
      });
      feed = created;
      this.feeds.set(key, feed);
    }
    return feed;
  }
}

function refuse(peer: WatchPeer, code: number, message: string): undefined {
  peer.send(JSON.stringify({ type: 'error', error: message }));
  peer.close(code, message);
  return undefined;
}
