/**
 * The crawl coordinator, run by every gateway process (it meters and stores, so it lives where Postgres is; it never
 * fetches — pages, robots.txt and sitemaps are worker jobs). Its loop claims the next URL of any crawl whose turn
 * has come from the Redis frontier (frontier-store.ts: per-host queues, leases), so any process takes any crawl's
 * next URL; a crawl's seeding is a job of the `trawl-crawl` queue. Every step is safe to run again after a process
 * died in it (its URL's lease expires and another process claims it):
 *
 *   robots.txt allows it? → a politeness slot (crawl cap, host cap and gap, Crawl-delay) and an account lease, else
 *   the job waits (delayed) → the page's reservation (its id derives from the crawl and the URL, so a retried job
 *   finds its own), written while the page comes from a worker → stored once under its final or canonical URL key
 *   and settled in the same commit (charged only if stored by this reservation), while its links are admitted to
 *   the frontier → the URL finished (a crawl at its cap is looked at again at once); the last one finishes the crawl.
 *
 * A page that failed costs nothing; an account out of credits stops the crawl (`credits_exhausted`, its pages kept).
 */
import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  ErrorCode, FINISHED_STATUSES, JobName, QueueName, formatsOf, selectEngine,
  type CrawlPagePayload, type CrawlPageSuccess, type CrawlStatus, type SerializedError,
} from '#contracts';
import { LedgerBatches, type ConcurrencyGate, type Lease } from '#billing';
import type { CrawlJobRow, CrawlsRepository, LedgerRepository } from '#db';
import { followableLinks, inScope, trapPattern, urlHash, urlKey, type CrawlScope, type UrlKeyOptions } from '#frontier';
import { metrics } from '#metrics';
import { duplicateRedis } from '#platform';
import type { JobDispatcher, JobOutcome } from '#queue';
import { CrawlJobName, fromPendingEntry, pageRequestId, pendingEntry, visitToken, type CrawlOptions, type CrawlSeedData, type CrawlUrlData } from './crawl-data.js';
import { AccountSlots } from './account-slots.js';
import { CrawlCountBatches, reportedCounts, type CrawlCounts } from './crawl-counts.js';
import { PageStoreBatches } from './page-batches.js';
import { crawlScope } from './crawl-scope.js';
import type { FrontierStore, StopReason } from './frontier-store.js';
import type { FrontierSpill } from './frontier-spill.js';
import { RobotsPending, RobotsUnreachable, type RobotsCache } from './robots-cache.js';
import { storedContent } from './stored-content.js';
import { sitemapUrls } from './sitemaps.js';
import type { WebhookSender } from './webhooks.js';

export interface CoordinatorSettings {
  prefix: string;
  concurrency: number;
  lockMs: number;
  pageTimeoutMs: number;
  reservationTtlMs: number;
  retentionMs: number;
  hostCap: number;
  hostGapMs: number;
  shapeCap: number;
  maxUrlLength: number;
  pageMaxBytes: number;
}

export interface CoordinatorPorts {
  repo: CrawlsRepository;
  ledger: LedgerRepository;
  gate: ConcurrencyGate;
  dispatcher: JobDispatcher;
  store: FrontierStore;
  spill: FrontierSpill;
  robots: RobotsCache;
  webhooks: WebhookSender;
  onError: (error: unknown, what: string) => void;
}

/** Redirects followed from one link (as the HTTP client follows for /crawl). */
const MAX_REDIRECTS = 10;
/** Attempts of a seed job (its faults are Redis or Postgres hiccups), and of one URL's visit before it fails. */
const SEED_ATTEMPTS = 5;
const URL_ATTEMPTS = 3;
/** What a page job may wait in its queue, beyond its own budget, before the visit gives it up. */
const PAGE_QUEUE_MS = 15_000;
/** How long a crawl with nothing queued is left alone (a running page that admits URLs wakes it at once). */
const IDLE_MS = 1_000;
/** The longest the loop sleeps with nothing to start (other processes' admissions are seen within it). */
const POLL_MS = 100;
/** URLs claimed from a crawl in one round trip. */
const CLAIM_BATCH = 16;
/**
 * How long the crawl's writes wait for others to go in the same statement: a page's reservation (asked for while its
 * host slot is, and awaited with its fetch), its store (awaited with its links' admission), its counters, a
 * failed page's refund (awaited by no one: the URL goes on, and the reconciler refunds what a dead process left open).
 * Each is one statement for several pages instead of one a page: about 40 % less Postgres CPU a page.
 */
const LINGER_MS = { reserve: 10, store: 4, counts: 10, refund: 20 };
/** How long a crawl's row is trusted in this process before it is read again (a stop is seen in Redis at once). */
const ROW_CACHE_MS = 2_000;
/** URL hashes this process remembers as in its crawls' seen-sets (about 100 bytes each); past it, it forgets them all. */
const KNOWN_MAX = 200_000;

/** Both promises' values, once both have settled (the first one's error if either failed). */
async function both<A, B>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> {
  const [x, y] = await Promise.allSettled([a, b]);
  if (x.status === 'rejected') throw x.reason;
  if (y.status === 'rejected') throw y.reason;
  return [x.value, y.value];
}

interface Crawl {
  row: CrawlJobRow;
  options: CrawlOptions;
  scope: CrawlScope | null;
  /** The start URL's key: always in scope, whatever the include/exclude patterns say. */
  startKey: string | null;
  keys: UrlKeyOptions;
  at: number;
}

export class CrawlCoordinator {
  private worker?: Worker;
  private readonly queue: Queue;
  private readonly crawls = new Map<string, Crawl>();
  private running = false;
  private loopDone: Promise<void> = Promise.resolve();
  private readonly visits = new Set<Promise<void>>();
  private wakeLoop: (() => void) | null = null;
  /** Visits of a URL that threw (Redis or Postgres faults), by crawl and hash: the third fails the URL. */
  private readonly faults = new Map<string, number>();
  /**
   * URL hashes of each crawl that this process saw admitted or refused as seen: a crawl's seen-set only grows, so a
   * link to one of them is not sent to Redis again (most of a page's links are; they were most of the frontier's
   * bytes). A cache only: a URL missing here is checked by the admit script as before.
   */
  private readonly known = new Map<string, Set<string>>();
  private knownSize = 0;
  /**
   * Reserves, stores, settles and counters of concurrent visits, written together (group commit): one statement for
   * many pages.
   */
  private readonly ledger: LedgerBatches;
  private readonly pages: PageStoreBatches;
  private readonly counts: CrawlCountBatches;
  /** The account slots of this process's pages, each handed on to the account's next page. */
  private readonly slots: AccountSlots;
  /** Refunds on their way (`refundLater`), awaited by `close`. */
  private readonly refunds = new Set<Promise<unknown>>();
  /** Visits of each crawl holding a granted reservation, until their page is stored or its credit is on its way back. */
  private readonly holding = new Map<string, Set<Promise<void>>>();

  constructor(
    private readonly connection: Redis,
    private readonly settings: CoordinatorSettings,
    private readonly ports: CoordinatorPorts,
  ) {
    this.queue = new Queue(QueueName.crawl, { connection, prefix: settings.prefix });
    this.queue.on('error', () => undefined);
    this.ledger = new LedgerBatches(ports.ledger, settings.reservationTtlMs, { reserveOnceLingerMs: LINGER_MS.reserve, refundLingerMs: LINGER_MS.refund });
    this.counts = new CrawlCountBatches(ports.repo, (error) => ports.onError(error, 'crawl counts'), LINGER_MS.counts);
    this.pages = new PageStoreBatches(ports.repo, this.counts, LINGER_MS.store);
    this.slots = new AccountSlots(ports.gate, (error) => ports.onError(error, 'crawl account slot'));
  }

  private addCounts(crawlId: string, counts: CrawlCounts): Promise<void> {
    return this.counts.add(crawlId, counts);
  }

  /** Starts the seed consumer and the claim loop. */
  start(): void {
    const connection = duplicateRedis(this.connection, 'trawl-crawl-coordinator');
    this.worker = new Worker(QueueName.crawl, (job) => this.process(job), {
      connection,
      prefix: this.settings.prefix,
      concurrency: 4,
      lockDuration: this.settings.lockMs,
      stalledInterval: Math.max(1000, Math.floor(this.settings.lockMs / 2)),
      maxStalledCount: 2,
    });
    this.worker.on('error', (error) => this.ports.onError(error, 'crawl coordinator'));
    // The worker does not own a connection it was given: drop it once the worker has closed.
    this.worker.on('closed', () => connection.disconnect());
    this.running = true;
    this.loopDone = this.loop();
  }

  async close(): Promise<void> {
    this.running = false;
    this.wakeLoop?.();
    await this.loopDone;
    await Promise.allSettled([...this.visits]);
    await Promise.all([this.counts.flush(), this.slots.close(), Promise.allSettled([...this.refunds]), this.ports.spill.close()]);
    await this.worker?.close();
    await this.queue.close();
  }

  async enqueueSeed(crawlId: string): Promise<void> {
    await this.queue.add(CrawlJobName.seed, { crawlId } satisfies CrawlSeedData, {
      jobId: `seed.${crawlId}`,
      attempts: SEED_ATTEMPTS,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: true,
      removeOnFail: { age: 3600 },
    });
  }

  async seedJobLost(crawlId: string): Promise<boolean> {
    return !(await this.queue.getJob(`seed.${crawlId}`));
  }

  /** Looks for work now rather than at the next poll (a visit finished, URLs were admitted). */
  private nudge(): void {
    const wake = this.wakeLoop;
    this.wakeLoop = null;
    wake?.();
  }

  /**
   * Claims and starts URLs of the crawls whose turn has come, up to the process's concurrency; a crawl that must
   * wait (its cap, a host's gap) or has nothing queued is snoozed in Redis until its next turn.
   */
  private async loop(): Promise<void> {
    const leaseMs = this.leaseMs();
    while (this.running) {
      let started = 0;
      try {
        if (this.visits.size < this.settings.concurrency) {
          for (const crawlId of await this.ports.store.dueCrawls(32)) {
            while (this.running && this.visits.size < this.settings.concurrency) {
              const room = Math.min(CLAIM_BATCH, this.settings.concurrency - this.visits.size);
              const claim = await this.ports.store.claim(crawlId, leaseMs, this.settings.hostCap, room);
              // Its queue runs low and it has URLs in Postgres: they come back first (a claim that found none asks again).
              if (claim.refill && (await this.ports.spill.refill(crawlId)) > 0 && !('urls' in claim)) continue;
              if ('urls' in claim) {
                // Started together: their first round trips go in one write, and their reserves in one statement.
                for (const url of claim.urls) this.startVisit(fromPendingEntry(crawlId, url.hash, url.entry), url.host);
                started += claim.urls.length;
                continue;
              }
              await this.ports.store.snooze(crawlId, 'wait' in claim ? claim.wait : IDLE_MS);
              break;
            }
            if (this.visits.size >= this.settings.concurrency) break;
          }
        }
      } catch (error) {
        this.ports.onError(error, 'crawl loop');
      }
      if (started === 0 && this.running) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            this.wakeLoop = null;
            resolve();
          }, POLL_MS);
          this.wakeLoop = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    }
  }

  /**
   * How long a claimed URL (and its host slot) stays its process's: longer than any visit takes (its page job's
   * deadline, robots.txt, storing), short enough that a dead process's URLs come back soon.
   */
  private leaseMs(): number {
    return this.settings.pageTimeoutMs + PAGE_QUEUE_MS + 15_000;
  }

  private startVisit(data: CrawlUrlData, host: string): void {
    const visit = this.visit(data, host)
      .catch((error: unknown) => this.visitFailed(data, error))
      .finally(() => {
        this.visits.delete(visit);
        this.nudge();
      });
    this.visits.add(visit);
  }

  /** A visit threw (a Redis or Postgres fault): the URL goes back to its queue, and fails on its third fault. */
  private async visitFailed(data: CrawlUrlData, error: unknown): Promise<void> {
    this.ports.onError(error, 'crawl page');
    const key = `${data.crawlId}.${data.hash}`;
    const faults = (this.faults.get(key) ?? 0) + 1;
    this.faults.set(key, faults);
    if (this.faults.size > 10_000) this.faults.delete(this.faults.keys().next().value!);
    try {
      if (faults < URL_ATTEMPTS) await this.ports.store.unclaim(data.crawlId, data.hash, 500 * faults);
      else await this.abandon(data, error);
    } catch (again) {
      // Redis itself is down: the URL's lease expires and another claim takes it.
      this.ports.onError(again, 'crawl page');
    }
  }

  private async process(job: Job): Promise<void> {
    if (job.name === CrawlJobName.seed) await this.seed((job.data as CrawlSeedData).crawlId);
  }

  private async crawl(crawlId: string): Promise<Crawl | null> {
    const hit = this.crawls.get(crawlId);
    if (hit && Date.now() - hit.at < ROW_CACHE_MS) return hit;
    const row = await this.ports.repo.get(crawlId);
    if (!row) {
      this.crawls.delete(crawlId);
      return null;
    }
    const options = row.options as unknown as CrawlOptions;
    const keys = { ignoreQuery: options.kind === 'site' ? options.ignore_query_strings : false };
    const site = options.kind === 'site';
    const crawl: Crawl = {
      row,
      options,
      keys,
      scope: site ? crawlScope(row.url!, options, this.settings.maxUrlLength) : null,
      startKey: site ? urlKey(row.url!, undefined, keys) : null,
      at: Date.now(),
    };
    this.crawls.set(crawlId, crawl);
    if (this.crawls.size > 5_000) this.crawls.delete(this.crawls.keys().next().value!);
    return crawl;
  }

  private finished(crawl: Crawl): boolean {
    return FINISHED_STATUSES.includes(crawl.row.status as CrawlStatus);
  }

  // ---- seeding ----

  private async seed(crawlId: string): Promise<void> {
    const crawl = await this.crawl(crawlId);
    if (!crawl || this.finished(crawl)) return;
    const { repo, store, webhooks } = this.ports;
    await repo.start(crawlId);
    await webhooks.send(this.hookTarget(crawl), 'started', 'started', { url: crawl.row.url, kind: crawl.row.kind });
    if (crawl.options.kind === 'batch') {
      const urls = (crawl.row.options as { urls: string[] }).urls;
      await this.admit(crawl, urls.map((url) => ({ url, depth: 0 })));
    } else {
      const start = crawl.row.url!;
      // The start URL always; with `sitemap: only`, the sitemap's URLs too and no link is followed.
      const candidates: Array<{ url: string; depth: number }> = [{ url: start, depth: 0 }];
      if (crawl.options.sitemap !== 'skip') {
        let robots = null;
        try {
          robots = await this.ports.robots.rulesFor(start, crawlId);
        } catch (error) {
          // Pending: the sitemaps at the usual place; unreachable: the start URL's visit records why.
          if (!(error instanceof RobotsPending) && !(error instanceof RobotsUnreachable)) throw error;
        }
        const entries = await sitemapUrls(this.ports.dispatcher, start, robots, crawlId, crawl.options.limit * 4);
        candidates.push(...entries.map((e) => ({ url: e.url, depth: 0 })));
      }
      await this.admit(crawl, candidates);
    }
    if (await store.seeded(crawlId)) await this.complete(crawl);
  }

  // ---- one URL ----

  /** One claimed URL: robots.txt, politeness across crawls, the account's slot, the reservation, the page. */
  private async visit(data: CrawlUrlData, host: string): Promise<void> {
    const crawl = await this.crawl(data.crawlId);
    const { store } = this.ports;
    // A stopped crawl's URLs are not claimed (the claim script checks, atomically): a stop after the claim finds this
    // page in flight, as it finds the pages already fetching.
    if (!crawl || this.finished(crawl)) {
      // Cancelled, out of credits, or its page limit reached: the URL is dropped; the last one finishes the crawl.
      if (crawl) return this.done(crawl, data);
      await store.finish(data.crawlId, data.hash);
      return;
    }
    const { options, row } = crawl;

    let crawlDelayMs = 0;
    if (options.kind === 'site' && !options.ignore_robots_txt) {
      let rules;
      try {
        rules = await this.ports.robots.rulesFor(data.url, data.crawlId);
      } catch (error) {
        if (error instanceof RobotsPending) return store.unclaim(data.crawlId, data.hash, 250);
        if (!(error instanceof RobotsUnreachable)) throw error;
        await this.counts.recordError(data.crawlId, { url: data.url, code: error.code, message: error.message, robots: false });
        metrics.crawlPages.inc({ outcome: 'failed' });
        return this.done(crawl, data);
      }
      if (!rules.allowed(data.url)) {
        await this.counts.recordError(data.crawlId, { url: data.url, code: ErrorCode.ROBOTS_DISALLOWED, message: "The site's robots.txt does not allow this URL", robots: true });
        return this.done(crawl, data);
      }
      crawlDelayMs = rules.crawlDelayMs() ?? 0;
      // This crawl's claims space the host's pages by its Crawl-delay from now on.
      if (crawlDelayMs > (options.delay_ms ?? this.settings.hostGapMs)) await store.setHostGap(data.crawlId, host, crawlDelayMs);
    }

    // The host's cap and gap across every crawl (the claim already kept this crawl's own). A crawl's own delay_ms may
    // lower the default for its starts, but a larger one spaces only its own pages (its claims do): set here, it
    // would hold every other crawl of the host back by it too.
    const gapMs = Math.max(Math.min(options.delay_ms ?? this.settings.hostGapMs, this.settings.hostGapMs), crawlDelayMs);
    const ownGapMs = Math.max(options.delay_ms ?? this.settings.hostGapMs, crawlDelayMs);
    const token = visitToken(data.crawlId, data.hash);
    // The page's reservation is asked for while its host slot is: it is the URL's own (a visit put back to wait finds
    // it open when it comes again), so it costs the visit no round trip of its own.
    const requestId = pageRequestId(data.crawlId, data.hash);
    const reserved = this.ledger.reserveOnce(row.accountId, requestId, options.unitCost);
    reserved.catch(() => undefined);
    const wait = await store.acquireHost(host, token, this.leaseMs(), this.settings.hostCap, gapMs);
    if (wait > 0) {
      metrics.crawlPolitenessWaits.inc();
      return store.unclaim(data.crawlId, data.hash, wait);
    }
    // Pages in flight count against the account's concurrency limit, leaving one slot for its synchronous calls.
    let lease: Lease | null = null;
    try {
      lease = await this.slots.acquire(row.accountId, Math.max(1, options.concurrencyLimit - 1));
    } finally {
      if (!lease) await store.releaseHost(host, token);
    }
    if (!lease) {
      metrics.crawlPolitenessWaits.inc();
      return store.unclaim(data.crawlId, data.hash, 200);
    }
    let visited = false;
    const release = this.holdWhenGranted(data.crawlId, reserved);

    try {
      // The page is fetched while its reservation is written, and stored only if the reservation was granted. Both
      // are awaited before anything else: the fetch holds the host's slot and the account's until it ends.
      const [granted, outcome] = await both(reserved, this.fetch(crawl, data, requestId, spacing(data.crawlId, host, gapMs, ownGapMs)));
      let state = granted;
      // Credits this crawl's other pages hold come back when those fail or turn out duplicates: the account is out of
      // credits only if it still is once they have settled (else a crawl stops while its account has credits left).
      if (state === 'insufficient' && (await this.othersSettled(data.crawlId))) state = await this.ledger.reserveOnce(row.accountId, requestId, options.unitCost);
      if (state === 'insufficient') {
        await this.stop(crawl, 'credits_exhausted', `${ErrorCode.CREDITS_EXHAUSTED}: the account ran out of credits; the pages stored so far are kept`);
        await store.finish(data.crawlId, data.hash);
        return;
      } else if (state === 'settled' || state === 'refunded') {
        // This URL was finished before its process died: what is left is discovery, from the page as stored.
        await this.rediscover(crawl, data);
        return this.done(crawl, data);
      }
      await this.store(crawl, data, requestId, outcome);
      visited = true;
    } finally {
      release();
      this.slots.release(row.accountId, lease);
      if (!visited) await store.releaseHost(host, token);
    }
    // Both in one write to Redis.
    await Promise.all([store.releaseHost(host, token), this.done(crawl, data)]);
  }

  private async fetch(crawl: Crawl, data: CrawlUrlData, requestId: string, spacing?: CrawlPagePayload['spacing']): Promise<JobOutcome<typeof JobName.crawlPage>> {
    const { options, row } = crawl;
    const engine = selectEngine({ renders: options.render_js });
    const payload: CrawlPagePayload = {
      callId: requestId,
      accountId: row.accountId,
      url: data.url,
      formats: formatsOf(options),
      device: 'desktop',
      ...options.page,
      ...(options.geolocation ? { geolocation: options.geolocation } : {}),
      links: true,
      // A site crawl checks each redirect target against robots.txt and its scope before it is requested.
      ...(options.kind === 'site' ? { followRedirects: false } : {}),
      timeoutMs: this.settings.pageTimeoutMs,
      ...(spacing?.length ? { spacing } : {}),
    };
    const [outcome] = await this.ports.dispatcher.runAll(engine.queue, JobName.crawlPage, [payload], Date.now() + this.settings.pageTimeoutMs + PAGE_QUEUE_MS, { local: true });
    return outcome;
  }

  private async store(crawl: Crawl, data: CrawlUrlData, requestId: string, outcome: JobOutcome<typeof JobName.crawlPage>): Promise<void> {
    const { options } = crawl;
    const { store } = this.ports;
    const failure: SerializedError | null = !outcome.ok ? outcome.error.toJSON() : !outcome.result.ok ? outcome.result.error : null;
    if (failure || !outcome.ok || !outcome.result.ok) return this.fail(data, requestId, failure?.code ?? ErrorCode.INTERNAL, failure?.message ?? 'failed');
    const page = outcome.result;

    if (page.redirect) return this.redirected(crawl, data, requestId, page.redirect);
    // A site's error pages are not its pages (a batch keeps them, with their status, as /crawl does).
    if (options.kind === 'site' && page.status_code >= 400) {
      return this.fail(data, requestId, ErrorCode.HTTP_ERROR, `The page answered HTTP ${page.status_code}`);
    }
    const finalKey = urlKey(page.finalUrl, undefined, crawl.keys) ?? data.key;
    // A browser followed redirects itself: the page is the final URL's, which is not crawled again.
    if (finalKey !== data.key && !(await store.markSeen(data.crawlId, urlHash(finalKey)))) return this.skip(data, requestId, 'the same page is stored already');
    const canonical = this.canonicalOf(crawl, page, finalKey);
    if (canonical) {
      // A duplicate of its canonical page: that page is crawled instead, at this depth; this one is not stored.
      this.refundLater(requestId, 'a canonical duplicate');
      await this.addCounts(data.crawlId, { skipped: 1 });
      await this.admit(crawl, [{ url: canonical, depth: data.depth }]);
      return;
    }

    const claim = await store.claimPage(data.crawlId, this.pageLimit(crawl));
    if (claim === 'full') return this.skip(data, requestId, "the crawl's page limit is reached");
    if (claim === 'last') await store.stop(data.crawlId);
    const content = storedContent(page, this.settings.pageMaxBytes);
    // Its links are admitted while it is stored: a process that dies between the two runs the URL again, and the
    // seen-set keeps its links from being admitted twice. A duplicate's links are the stored page's, seen already.
    const [stored] = await both(
      this.pages.store({
        jobId: data.crawlId,
        urlKey: finalKey,
        sourceUrl: data.url,
        url: page.finalUrl,
        statusCode: page.status_code,
        depth: data.depth,
        content: content.value,
        bytes: content.bytes,
        credits: options.unitCost,
        requestId,
      }),
      claim === 'last' ? Promise.resolve() : this.discover(crawl, data, page.links ?? []),
    );
    if (stored !== 'new') await store.unclaimPage(data.crawlId);
    if (stored === 'duplicate') {
      this.refundLater(requestId, 'the same page is stored already');
      metrics.crawlPages.inc({ outcome: 'duplicate' });
      return;
    }
    // Charged by the store itself (the page's reservation settled in its commit).
    metrics.crawlPages.inc({ outcome: 'stored' });
    if (stored === 'new') {
      await this.ports.webhooks.send(this.hookTarget(crawl), 'page', requestId, { url: page.finalUrl, source_url: data.url, status_code: page.status_code, depth: data.depth, ...content.value });
    }
  }

  /** A page's canonical URL key when it names another page of the crawl (in scope): this page is its duplicate. */
  private canonicalOf(crawl: Crawl, page: CrawlPageSuccess, ownKey: string): string | null {
    if (!page.canonical) return null;
    const canonical = urlKey(page.canonical, page.finalUrl, crawl.keys);
    if (!canonical || canonical === ownKey) return null;
    if (crawl.scope && !inScope(canonical, crawl.scope).ok) return null;
    return canonical;
  }

  /** A redirect: its target is crawled in this URL's place (at its depth), once, when it is in the crawl's scope. */
  private async redirected(crawl: Crawl, data: CrawlUrlData, requestId: string, location: string): Promise<void> {
    const target = urlKey(location, undefined, crawl.keys);
    const hops = (data.hops ?? 0) + 1;
    if (!target) return this.fail(data, requestId, ErrorCode.INVALID_URL, 'The server redirected to an invalid URL');
    if (hops > MAX_REDIRECTS) return this.fail(data, requestId, ErrorCode.TOO_MANY_REDIRECTS, `More than ${MAX_REDIRECTS} redirects`);
    if (crawl.scope && !inScope(target, crawl.scope).ok) {
      return this.fail(data, requestId, ErrorCode.OUT_OF_SCOPE, `The page redirected out of the crawl's scope (${target.slice(0, 200)})`);
    }
    this.refundLater(requestId, 'redirected');
    await this.addCounts(data.crawlId, { skipped: 1 });
    const admitted = await this.admit(crawl, [{ url: target, depth: data.depth, hops }]);
    // A redirect back to a URL already crawled (a loop) ends here: nothing to store.
    if (admitted === 0) metrics.crawlPages.inc({ outcome: 'duplicate' });
  }

  /**
   * Gives a page's reservation back without waiting for it: the URL goes on at once, the refund goes with others, and
   * one that a dying process never wrote is the reconciler's when the reservation expires.
   */
  private refundLater(requestId: string, note: string): void {
    const refund = this.ledger
      .refund(requestId, note)
      .catch((error: unknown) => this.ports.onError(error, 'crawl page refund'))
      .finally(() => this.refunds.delete(refund));
    this.refunds.add(refund);
  }

  /**
   * Counts the visit among its crawl's pages holding credits once its reservation is granted, until `release` (for
   * `othersSettled`). A visit refused credits is never counted: visits that wait on each other cannot both be.
   */
  private holdWhenGranted(crawlId: string, reserved: Promise<string>): () => void {
    let done!: () => void;
    const held = new Promise<void>((resolve) => (done = resolve));
    let released = false;
    void reserved.then(
      (state) => {
        if (released || (state !== 'reserved' && state !== 'open')) return;
        let visits = this.holding.get(crawlId);
        if (!visits) this.holding.set(crawlId, (visits = new Set()));
        visits.add(held);
        void held.then(() => {
          visits.delete(held);
          if (visits.size === 0 && this.holding.get(crawlId) === visits) this.holding.delete(crawlId);
        });
      },
      () => undefined,
    );
    return () => {
      released = true;
      done();
    };
  }

  /**
   * Waits until the pages of the crawl that this process has holding credits are stored or refunded, and its refunds
   * on their way have landed; false when there were none (nothing could have come back).
   */
  private async othersSettled(crawlId: string): Promise<boolean> {
    const held = [...(this.holding.get(crawlId) ?? [])];
    if (held.length === 0 && this.refunds.size === 0) return false;
    await Promise.allSettled(held);
    await this.settled();
    return true;
  }

  /**
   * The refunds this process has on their way, landed: a crawl is marked finished after them, so its account's
   * balance read once it reads finished has its failed pages back (those refunded here; another process's land
   * within their linger).
   */
  private async settled(): Promise<void> {
    await Promise.allSettled([...this.refunds]);
  }

  private async fail(data: CrawlUrlData, requestId: string, code: string, message: string): Promise<void> {
    this.refundLater(requestId, 'page failed');
    await this.counts.recordError(data.crawlId, { url: data.url, code, message, robots: false });
    metrics.crawlPages.inc({ outcome: 'failed' });
  }

  private async skip(data: CrawlUrlData, requestId: string, note: string): Promise<void> {
    this.refundLater(requestId, note);
    await this.addCounts(data.crawlId, { skipped: 1 });
    metrics.crawlPages.inc({ outcome: 'duplicate' });
  }

  /** Pages a crawl stores at most: a site crawl's `limit`, a batch's URL count. */
  private pageLimit(crawl: Crawl): number {
    return crawl.options.kind === 'site' ? crawl.options.limit : Number.MAX_SAFE_INTEGER;
  }

  private async discover(crawl: Crawl, data: CrawlUrlData, links: Array<{ url: string; nofollow?: true }>): Promise<void> {
    if (crawl.options.kind !== 'site' || crawl.options.sitemap === 'only' || data.depth >= crawl.options.max_depth || links.length === 0) return;
    const keys = followableLinks(links.map((l) => ({ href: l.url, ...(l.nofollow ? { rel: 'nofollow' } : {}) })), data.url, crawl.keys);
    await this.admit(crawl, keys.map((url) => ({ url, depth: data.depth + 1 })));
  }

  /** Discovery of a URL whose page was stored before its process died (its links are in the stored content). */
  private async rediscover(crawl: Crawl, data: CrawlUrlData): Promise<void> {
    const stored = await this.ports.repo.pageLinks(data.crawlId, data.url);
    await this.discover(crawl, data, stored.map((url) => ({ url })));
  }

  /**
   * In scope, keyed, admitted under the frontier cap and the trap caps, then enqueued; how many were admitted. The
   * frontier holds at most a few times the page limit: URLs beyond it could never be stored.
   */
  private async admit(crawl: Crawl, entries: Array<{ url: string; depth: number; hops?: number }>): Promise<number> {
    const crawlId = crawl.row.id;
    const known = this.known.get(crawlId);
    const candidates: CrawlUrlData[] = [];
    const seen = new Set<string>();
    for (const entry of entries) {
      const key = urlKey(entry.url, undefined, crawl.keys);
      if (!key || seen.has(key)) continue;
      seen.add(key);
      const hash = urlHash(key);
      if (known?.has(hash)) continue;
      if (crawl.scope && key !== crawl.startKey && !inScope(key, crawl.scope).ok) continue;
      candidates.push({ crawlId, url: key, key, hash, depth: entry.depth, ...(entry.hops ? { hops: entry.hops } : {}) });
    }
    if (candidates.length === 0) return 0;
    const limit = this.pageLimit(crawl);
    const { outcomes, spilled } = await this.ports.store.admit(
      crawlId,
      limit === Number.MAX_SAFE_INTEGER ? limit : limit * 3 + 100,
      crawl.options.kind === 'site' ? this.settings.shapeCap : 0,
      candidates.map((c) => ({ hash: c.hash, host: new URL(c.key).host, shape: trapPattern(c.key), entry: pendingEntry(c) })),
    );
    // Past the crawl's bound in Redis they are on the spill list, safe there; Postgres takes them within a linger.
    if (spilled > 0) this.ports.spill.later(crawlId);
    this.remember(crawlId, candidates.filter((_, i) => outcomes[i] !== 'over-limit').map((c) => c.hash));
    const admitted = candidates.filter((_, i) => outcomes[i] === 'admitted');
    if (admitted.length === 0) return 0;
    this.counts.discoveredLater(crawlId, admitted.length);
    // The admit script has listed the crawl as due; this process's loop looks at once.
    this.nudge();
    metrics.crawlFrontierAdded.inc(admitted.length);
    return admitted.length;
  }

  private forget(crawlId: string): void {
    this.knownSize -= this.known.get(crawlId)?.size ?? 0;
    this.known.delete(crawlId);
  }

  /** Hashes now in the crawl's seen-set (admitted, seen before, or refused by the trap cap). */
  private remember(crawlId: string, hashes: string[]): void {
    if (hashes.length === 0) return;
    if (this.knownSize + hashes.length > KNOWN_MAX) {
      this.known.clear();
      this.knownSize = 0;
    }
    let set = this.known.get(crawlId);
    if (!set) this.known.set(crawlId, (set = new Set()));
    for (const hash of hashes) {
      if (set.has(hash)) continue;
      set.add(hash);
      this.knownSize++;
    }
  }

  // ---- finishing ----

  private async done(crawl: Crawl, data: CrawlUrlData): Promise<void> {
    if (await this.ports.store.finish(data.crawlId, data.hash)) await this.complete(crawl);
  }

  /** The URL's last attempt failed in the coordinator itself: it is recorded as failed, its reservation refunded. */
  private async abandon(data: CrawlUrlData, error: unknown): Promise<void> {
    const crawl = await this.crawl(data.crawlId);
    await this.ledger.refund(pageRequestId(data.crawlId, data.hash), 'crawl page abandoned');
    await this.counts.recordError(data.crawlId, {
      url: data.url,
      code: ErrorCode.INTERNAL,
      message: `The crawl could not process this URL (${error instanceof Error ? error.message.slice(0, 200) : 'unknown error'})`,
      robots: false,
    });
    if (crawl) await this.done(crawl, data);
  }

  /**
   * The frontier drained, or a stopped crawl's last page finished: the crawl ends (once, whichever process sees it
   * first) — completed, or as its stop said (a cancel is never read as completed by a page finishing meanwhile).
   */
  async complete(crawl: Crawl | string): Promise<void> {
    const c = typeof crawl === 'string' ? await this.crawl(crawl) : crawl;
    if (!c) return;
    const reason = await this.ports.store.stopped(c.row.id);
    await this.end(c, reason ?? { status: 'completed', error: null });
  }

  /**
   * Stops a crawl for good (no URL starts after this): cancelled, out of credits, or failed. The first stop's reason
   * is the one the crawl ends with. True when this call ended it.
   */
  async stop(crawl: Crawl | string, status: StopReason['status'], error: string | null): Promise<boolean> {
    const c = typeof crawl === 'string' ? await this.crawl(crawl) : crawl;
    if (!c) return false;
    const reason = (await this.ports.store.stop(c.row.id, { status, error })) ?? { status, error };
    return this.end(c, reason);
  }

  /** Writes the crawl's final status, then drops its frontier and tells its webhook. */
  private async end(c: Crawl, { status, error }: { status: 'completed' | StopReason['status']; error: string | null }): Promise<boolean> {
    await this.settled();
    await this.counts.flush(c.row.id);
    const ended = await this.ports.repo.finish(c.row.id, status, error, this.settings.retentionMs, await this.ports.store.admitted(c.row.id));
    this.crawls.delete(c.row.id);
    this.forget(c.row.id);
    if (!ended) return false;
    await this.ports.store.clear(c.row.id);
    await this.ports.spill.drop(c.row.id);
    if (status === 'completed') {
      const row = await this.ports.repo.get(c.row.id);
      await this.ports.webhooks.send(this.hookTarget(c), 'completed', 'completed', {
        status: 'completed',
        counts: row ? reportedCounts(row, true) : undefined,
        credits: row?.credits,
      });
    } else if (status !== 'cancelled') {
      await this.ports.webhooks.send(this.hookTarget(c), 'failed', 'failed', { status, error });
    }
    metrics.crawlsFinished.inc({ status });
    return true;
  }

  private hookTarget(crawl: Crawl) {
    return { id: crawl.row.id, accountId: crawl.row.accountId, ...(crawl.options.webhook ? { webhook: crawl.options.webhook } : {}) };
  }
}

/**
 * The turns a page's request takes as it is sent: the host's gap for every crawl, and this crawl's own (its delay_ms or
 * the host's Crawl-delay) when larger — the same gaps its start was granted by, held again where the request leaves.
 */
function spacing(crawlId: string, host: string, gapMs: number, ownGapMs: number): CrawlPagePayload['spacing'] {
  const turns = gapMs > 0 ? [{ key: `host:${host}`, intervalMs: gapMs }] : [];
  if (ownGapMs > gapMs) turns.push({ key: `crawl:${crawlId}:${host}`, intervalMs: ownGapMs });
  return turns;
}
