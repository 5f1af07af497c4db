/**
 * One crawl's (or batch's) watchers fed by one poller: however many connections watch a job, it is read once a
 * tick, by cursor (the pages stored after the last one sent), and each new page is sent to every watcher. A watcher
 * joining late first gets a `catchup` (the job's status and the pages stored so far, read once for it), then the
 * live pages. The messages are those `@mendable/firecrawl-js`'s Watcher reads: `catchup` {status, completed, total,
 * creditsUsed, expiresAt, data}, `document` (one document), `done` (a completed job), `error` {error}; a job that
 * ends cancelled or failed ends with a last `catchup` carrying that status (the SDK's `done` always says completed).
 */
import { FINISHED_STATUSES, type CrawlJobSummary, type CrawlStatus } from '#contracts';
import { jobStatus, type FirecrawlDocument } from '#firecrawl';

/** One watcher's connection, as the feed sees it. */
export interface WatchPeer {
  /** Sends one text message; false when the peer has gone (closed, or closed for being too slow). */
  send(text: string): boolean;
  close(code: number, reason: string): void;
}

/** A read of the job: its summary, then the documents stored after `cursor` (at most `limit`), and the next cursor. */
export type FeedReader = (cursor: string, limit: number) => Promise<{ summary: CrawlJobSummary; documents: FirecrawlDocument[]; cursor: string }>;

export interface FeedSettings {
  /** Between two reads while nothing new came. */
  pollMs: number;
  /** With no new page for this long, the watchers are closed (1001). */
  idleMs: number;
  /** A message's largest size; a larger document is sent without its content (its metadata says so). */
  maxMessageBytes: number;
  /** Documents read at once. */
  batch: number;
}

/** WebSocket close codes the watcher uses (Firecrawl's where it has one). */
export const CLOSE = { done: 1000, idle: 1001, notFound: 1008, internal: 1011, tooSlow: 1013, unauthorized: 3000, tooMany: 4429 } as const;

/** Reads in a row that may fail before the watchers are closed (1011). */
const MAX_READ_FAILURES = 5;

export class JobFeed {
  private readonly live = new Set<WatchPeer>();
  private pending: WatchPeer[] = [];
  private cursor = '0';
  /** Documents sent live so far: the first `sent` stored pages, which a late watcher's catchup reads. */
  private sent = 0;
  private timer: NodeJS.Timeout | undefined;
  private reading = false;
  private stopped = false;
  private failures = 0;
  private lastNewAt: number;

  constructor(
    private readonly read: FeedReader,
    private readonly settings: FeedSettings,
    /** Called once when the feed has no watcher left (it is then dropped). */
    private readonly onEmpty: () => void,
    private readonly now: () => number = Date.now,
  ) {
    this.lastNewAt = now();
  }

  get watchers(): number {
    return this.live.size + this.pending.length;
  }

  add(peer: WatchPeer): void {
    this.pending.push(peer);
    if (!this.reading) this.schedule(0);
  }

  remove(peer: WatchPeer): void {
    this.live.delete(peer);
    this.pending = this.pending.filter((p) => p !== peer);
    if (this.watchers === 0) this.stop();
  }

  /** Closes every watcher (e.g. at shutdown). */
  closeAll(code: number, reason: string): void {
    for (const peer of [...this.live, ...this.pending]) peer.close(code, reason);
    this.live.clear();
    this.pending = [];
    this.stop();
  }

  private stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.timer);
    this.onEmpty();
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    this.reading = true;
    let delay = this.settings.pollMs;
    try {
      // The summary is read before the pages: when it says the job has finished, the pages read include its last.
      const { summary, documents, cursor } = await this.read(this.cursor, this.settings.batch);
      this.failures = 0;
      const finished = FINISHED_STATUSES.includes(summary.status as CrawlStatus) && documents.length < this.settings.batch;
      for (const doc of documents) this.broadcast({ type: 'document', data: doc });
      const joining = this.pending;
      this.pending = [];
      for (const peer of joining) {
        if (!(await this.catchup(peer, summary, this.sent, documents, finished))) this.live.add(peer);
      }
      this.cursor = cursor;
      this.sent += documents.length;
      if (documents.length) this.lastNewAt = this.now();
      if (finished) {
        const last = finalMessage(summary);
        for (const peer of this.live) if (this.deliver(peer, last)) peer.close(CLOSE.done, 'done');
        this.live.clear();
      } else if (this.now() - this.lastNewAt >= this.settings.idleMs) {
        this.closeAll(CLOSE.idle, 'idle: no new page; poll the status pages');
      }
      if (documents.length === this.settings.batch) delay = 0;
    } catch (error) {
      this.failures++;
      const gone = (error as { code?: string }).code === 'NOT_FOUND';
      if (gone || this.failures >= MAX_READ_FAILURES) {
        const message = gone ? 'Job not found' : 'The job could not be read';
        for (const peer of [...this.live, ...this.pending]) this.deliver(peer, { type: 'error', error: message });
        this.closeAll(gone ? CLOSE.notFound : CLOSE.internal, message);
      }
    } finally {
      this.reading = false;
    }
    if (this.watchers === 0) this.stop();
    else this.schedule(this.pending.length ? 0 : delay);
  }

  /**
   * A joining watcher's catchup: the job's status with the documents stored so far (the first `upTo`, read for it,
   * then `fresh`, this tick's), as many as one message holds, the others as documents. Its status is the job's,
   * except `scraping` while messages follow. True when it was the last message (`finished`, and every document in
   * it): the peer is then closed.
   */
  private async catchup(peer: WatchPeer, summary: CrawlJobSummary, upTo: number, fresh: FirecrawlDocument[], finished: boolean): Promise<boolean> {
    let head: FirecrawlDocument[] | null = [];
    let bytes = 0;
    const budget = this.settings.maxMessageBytes - 4096;
    const sendHead = (last: boolean) => {
      const answer = jobStatus(summary, head ?? [], undefined);
      const { success: _success, ...data } = last ? answer : { ...answer, status: 'scraping' as const };
      head = null;
      return this.deliver(peer, { type: 'catchup', data });
    };
    /** False when the peer has gone. */
    const add = (doc: FirecrawlDocument): boolean => {
      if (head) {
        const size = Buffer.byteLength(JSON.stringify(doc));
        if (bytes + size <= budget) {
          head.push(doc);
          bytes += size;
          return true;
        }
        if (!sendHead(false)) return false;
      }
      return this.deliver(peer, { type: 'document', data: doc });
    };
    let cursor = '0';
    let remaining = upTo;
    while (remaining > 0) {
      const got = await this.read(cursor, Math.min(this.settings.batch, remaining));
      if (!got.documents.length) break;
      cursor = got.cursor;
      remaining -= got.documents.length;
      for (const doc of got.documents) if (!add(doc)) return true;
    }
    for (const doc of fresh) if (!add(doc)) return true;
    if (head) {
      if (!sendHead(finished)) return true;
      if (finished) {
        peer.close(CLOSE.done, 'done');
        return true;
      }
    }
    return false;
  }

  private broadcast(message: WatchMessage): void {
    const text = this.encode(message);
    for (const peer of this.live) if (!peer.send(text)) this.live.delete(peer);
  }

  private deliver(peer: WatchPeer, message: WatchMessage): boolean {
    return peer.send(this.encode(message));
  }

  private encode(message: WatchMessage): string {
    const text = JSON.stringify(message);
    if (message.type !== 'document' || Buffer.byteLength(text) <= this.settings.maxMessageBytes) return text;
    const doc = message.data as FirecrawlDocument;
    const metadata = { ...(doc.metadata ?? {}), error: `The document is larger than the watcher's ${this.settings.maxMessageBytes}-byte message limit: read it from the status pages` };
    return JSON.stringify({ type: 'document', data: { metadata } });
  }
}

export type WatchMessage =
  | { type: 'catchup'; data: Record<string, unknown> }
  | { type: 'document'; data: FirecrawlDocument }
  | { type: 'done'; data: Record<string, unknown> }
  | { type: 'error'; error: string };

/** The last message of a finished job: `done` when it completed, else a catchup with its status (and error). */
function finalMessage(summary: CrawlJobSummary): WatchMessage {
  const { success: _success, data: _data, ...status } = jobStatus(summary, [], undefined);
  return status.status === 'completed' ? { type: 'done', data: status } : { type: 'catchup', data: { ...status, data: [] } };
}
