/**
 * ExtractionPool: runs formatPage on worker threads so a crawl worker's event loop stays free while a large page
 * is converted (a 1 MB page takes tens of ms). `threads: 0` runs inline (same API, no threads).
 *
 * Small pages are formatted inline while the event loop has time to spare — a hop to a thread costs two thread
 * wake-ups, about what the small page's formats cost — and on the threads too once the loop is busy, when the loop
 * and not the CPU is what limits throughput. Each worker holds up to two pages, so it starts the next one as it
 * posts a result instead of waiting a round trip for it.
 *
 * Documents (PDF, DOCX) always go to a thread when there is one: they are parsed from bytes an outsider chose, so a
 * hostile one (a compression bomb, a page tree without end) must cost a thread — stopped at the page job's time budget
 * or its heap limit, and replaced — never the worker's event loop. Their time limit is the task's own deadline.
 *
 * The worker script is the compiled sibling `pool-worker.js` (dist/libs/extraction/src/pool-worker.js); under Jest
 * the sources are TypeScript, so pass `workerUrl` pointing at a compiled build or use `threads: 0`.
 */
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ErrorCode, TrawlError, type FetchedDocument, type FormattedPage, type SerializedError } from '#contracts';
import { metrics } from '#metrics';
import { formatDocument, timeoutError, type DocumentLimits } from './documents/format-document.js';
import { formatPage, type FormatOptions } from './format-page.js';
import type { MarkdownConverterName } from './markdown/converters.js';

export interface ExtractionPoolOptions {
  threads: number;
  markdownConverter?: MarkdownConverterName;
  /** Worker script; defaults to the compiled `pool-worker.js` next to this module. */
  workerUrl?: URL;
  /**
   * Pages shorter than this (characters) are formatted inline while the event loop is not busy (see `loopUtilization`):
   * they take a few ms at most, less than the hop to a thread costs an idle process in latency. Default 64 KiB.
   */
  inlineBelowChars?: number;
  /**
   * The event loop's utilization over the last window (0–1). Default: `performance.eventLoopUtilization()` over
   * windows of 100 ms. Small pages go to the threads from LOOP_BUSY_ON, and inline again below LOOP_BUSY_OFF.
   */
  loopUtilization?: () => number;
  /** A page still running after this is abandoned: its worker is replaced and the promise rejects. Default 60 s. */
  taskTimeoutMs?: number;
  /** PDF pages read from a document (PDF_MAX_PAGES); the rest are counted in its metadata. Default 200. */
  maxDocumentPages?: number;
  /** Bytes a DOCX may unpack to (its ZIP parts together). Default 100 MiB. */
  maxUnpackedBytes?: number;
  /** Each thread's V8 heap cap: a document that needs more fails alone, its thread replaced. Default 1024 MiB. */
  threadHeapMb?: number;
}

interface Pending {
  id: number;
  html: string;
  options: FormatOptions;
  /** A document to parse instead of `html`, within its limits (whose deadline is this task's time limit). */
  document?: FetchedDocument;
  limits?: DocumentLimits;
  resolve: (page: FormattedPage) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  /** Tasks sent to this worker, in order: the first is running, the others wait in its message port. */
  tasks: Pending[];
  /** The running task's time limit. */
  timer?: NodeJS.Timeout;
}

/**
 * Tasks in flight per worker. Two keep a worker busy back to back: its next page is already in its port when it
 * posts a result, instead of one message round trip later (two thread wake-ups, ~0.17 ms here: as much as the
 * small page's own formats). Measured with all pages on one thread, 32 at a time: 0.23 ms a small page instead of 0.34.
 */
const DEPTH = 2;
/**
 * Event-loop utilization from which small pages go to the threads too, and below which they are inline again (the
 * gap keeps the mode from flapping). `npm run bench:crawl`: the standalone's loop runs at 0.55–0.7 with one client
 * and 0.8–0.98 with 32, where the hop saves the loop more than it costs.
 */
export const LOOP_BUSY_ON = 0.75;
export const LOOP_BUSY_OFF = 0.6;
const LOOP_WINDOW_MS = 100;

/** The event loop's utilization over the last complete window of `windowMs`, sampled when asked. */
export function windowedLoopUtilization(windowMs = LOOP_WINDOW_MS): () => number {
  let mark = performance.eventLoopUtilization();
  let at = performance.now();
  let last = 0;
  return () => {
    const now = performance.now();
    if (now - at >= windowMs) {
      const next = performance.eventLoopUtilization();
      last = performance.eventLoopUtilization(next, mark).utilization;
      mark = next;
      at = now;
    }
    return last;
  };
}

export class ExtractionPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;
  private readonly workerUrl: URL;
  private readonly timeoutMs: number;
  private readonly converter?: MarkdownConverterName;
  private readonly inlineBelowChars: number;
  private readonly threadHeapMb: number;
  private readonly documentLimits: Omit<DocumentLimits, 'deadline'>;
  private readonly loopUtilization: () => number;
  /** Whether small pages currently go to the threads (the loop was busy). */
  private loopBusy = false;

  constructor(opts: ExtractionPoolOptions) {
    this.converter = opts.markdownConverter;
    this.timeoutMs = opts.taskTimeoutMs ?? 60_000;
    this.inlineBelowChars = opts.inlineBelowChars ?? 64 * 1024;
    this.threadHeapMb = opts.threadHeapMb ?? 1024;
    this.documentLimits = { maxPages: opts.maxDocumentPages ?? 200, maxUnpackedBytes: opts.maxUnpackedBytes ?? 100 * 1024 * 1024 };
    this.loopUtilization = opts.loopUtilization ?? windowedLoopUtilization();
    this.workerUrl = opts.workerUrl ?? new URL('./pool-worker.js', import.meta.url);
    const threads = Math.max(0, Math.floor(opts.threads));
    if (threads > 0 && this.workerUrl.protocol === 'file:' && !existsSync(fileURLToPath(this.workerUrl))) {
      throw new Error(`ExtractionPool: worker script not found at ${fileURLToPath(this.workerUrl)} (run the compiled build, or use threads: 0)`);
    }
    for (let i = 0; i < threads; i++) this.slots.push(this.spawn());
  }

  get threads(): number {
    return this.slots.length;
  }

  format(html: string, options: FormatOptions): Promise<FormattedPage> {
    const endTimer = metrics.extractionDuration.startTimer();
    const page = this.formatTimed(html, options);
    page.then(() => void endTimer(), () => undefined);
    return page;
  }

  private formatTimed(html: string, options: FormatOptions): Promise<FormattedPage> {
    if (this.closed) return Promise.reject(new Error('ExtractionPool is closed'));
    const opts = { ...options, markdownConverter: options.markdownConverter ?? this.converter };
    if (this.slots.length === 0 || (html.length < this.inlineBelowChars && !this.isLoopBusy())) {
      try {
        return Promise.resolve(formatPage(html, opts));
      } catch (err) {
        return Promise.reject(err as Error);
      }
    }
    return new Promise<FormattedPage>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, html, options: opts, resolve, reject });
      this.dispatch();
    });
  }

  /**
   * A PDF or DOCX through the same formats as a page, parsed on a thread (inline only when the pool has none).
   * Rejects with a permanent TrawlError — unreadable, too large, or past `deadline` (epoch ms) — so the URL costs nothing.
   */
  formatDocument(document: FetchedDocument, options: FormatOptions, deadline: number): Promise<FormattedPage> {
    const limits: DocumentLimits = { ...this.documentLimits, deadline };
    if (this.closed) return Promise.reject(new Error('ExtractionPool is closed'));
    const opts = { ...options, markdownConverter: options.markdownConverter ?? this.converter };
    const endTimer = metrics.extractionDuration.startTimer();
    const page =
      this.slots.length === 0
        ? formatDocument(document, opts, limits)
        : new Promise<FormattedPage>((resolve, reject) => {
            this.queue.push({ id: this.nextId++, html: '', options: opts, document, limits, resolve, reject });
            this.dispatch();
          });
    page.then(() => void endTimer(), () => undefined);
    return page;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.splice(0)) p.reject(new Error('ExtractionPool is closed'));
    await Promise.all(
      this.slots.splice(0).map(async (slot) => {
        this.stopClock(slot);
        for (const task of slot.tasks.splice(0)) task.reject(new Error('ExtractionPool is closed'));
        await slot.worker.terminate();
      }),
    );
  }

  private isLoopBusy(): boolean {
    const utilization = this.loopUtilization();
    this.loopBusy = utilization >= (this.loopBusy ? LOOP_BUSY_OFF : LOOP_BUSY_ON);
    return this.loopBusy;
  }

  private spawn(): Slot {
    const worker = new Worker(this.workerUrl, {
      workerData: { markdownConverter: this.converter },
      resourceLimits: { maxOldGenerationSizeMb: this.threadHeapMb },
    });
    const slot: Slot = { worker, tasks: [] };
    worker.unref();
    worker.on('message', (msg: { id: number; page?: FormattedPage; error?: SerializedError }) => {
      const task = slot.tasks[0];
      if (!task || task.id !== msg.id) return;
      slot.tasks.shift();
      this.settled(slot);
      if (msg.error) task.reject(new TrawlError(msg.error.code, msg.error.message, msg.error.kind));
      else task.resolve(msg.page as FormattedPage);
      this.dispatch();
    });
    worker.on('error', (err) => this.replace(slot, err));
    worker.on('exit', (code) => {
      if (!this.closed) this.replace(slot, new Error(`extraction worker exited with code ${code}`));
    });
    return slot;
  }

  /** The running task ended: the next one sent to this worker starts its clock; an idle worker stops holding the process. */
  private settled(slot: Slot): void {
    this.stopClock(slot);
    if (slot.tasks.length > 0) this.startClock(slot);
    else if (this.queue.length === 0) slot.worker.unref();
  }

  private startClock(slot: Slot): void {
    const limits = slot.tasks[0]?.limits;
    const ms = limits ? Math.max(0, limits.deadline - Date.now()) : this.timeoutMs;
    slot.timer = setTimeout(() => this.replace(slot, limits ? timeoutError() : new Error(`extraction timed out after ${this.timeoutMs} ms`)), ms);
  }

  private stopClock(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
  }

  /**
   * A worker died or hung: fail its running task, put a fresh worker in its place, and give the tasks waiting behind
   * it (never started) back to the queue's front.
   */
  private replace(slot: Slot, err: Error): void {
    const i = this.slots.indexOf(slot);
    // close() takes every slot out first, so a slot found here belongs to an open pool.
    if (i < 0) return;
    this.stopClock(slot);
    const [running, ...waiting] = slot.tasks.splice(0);
    slot.worker.removeAllListeners('exit');
    void slot.worker.terminate();
    this.queue.unshift(...waiting);
    this.slots[i] = this.spawn();
    // A document that killed its thread (out of memory, a crash in the parser) fails alone and for good: never retried.
    running?.reject(running.document && !(err instanceof TrawlError) ? documentCrash(err) : err);
    this.dispatch();
  }

  /** Fills the workers level by level (every idle one first), up to DEPTH tasks each. */
  private dispatch(): void {
    for (let level = 1; level <= DEPTH; level++) {
      for (const slot of this.slots) {
        if (this.queue.length === 0) return;
        if (slot.tasks.length >= level) continue;
        const task = this.queue.shift() as Pending;
        slot.tasks.push(task);
        if (slot.tasks.length === 1) {
          slot.worker.ref();
          this.startClock(slot);
        }
        slot.worker.postMessage({ id: task.id, html: task.html, options: task.options, document: task.document, limits: task.limits });
      }
    }
  }
}

function documentCrash(err: Error): TrawlError {
  const memory = (err as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
  const why = memory ? 'needed more memory than a parser thread may use' : `stopped its parser thread (${err.message.slice(0, 120)})`;
  return new TrawlError(ErrorCode.UNSUPPORTED_CONTENT, `The document ${why}`, 'permanent');
}
