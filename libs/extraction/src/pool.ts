/**
 * ExtractionPool: runs formatPage on worker threads so a crawl worker's event loop stays free while a large page
 * is converted (a 1 MB page takes tens of ms). `threads: 0` runs inline (same API, no threads).
 *
 * The worker script is the compiled sibling `pool-worker.js` (dist/libs/extraction/src/pool-worker.js); under Jest
 * the sources are TypeScript, so pass `workerUrl` pointing at a compiled build or use `threads: 0`.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FormattedPage } from '#contracts';
import { metrics } from '#metrics';
import { formatPage, type FormatOptions } from './format-page.js';
import type { MarkdownConverterName } from './markdown/converters.js';

export interface ExtractionPoolOptions {
  threads: number;
  markdownConverter?: MarkdownConverterName;
  /** Worker script; defaults to the compiled `pool-worker.js` next to this module. */
  workerUrl?: URL;
  /**
   * Pages shorter than this (characters) are formatted inline even when threads exist: they take a few ms, less
   * than the hop to a thread costs in throughput. Default 64 KiB.
   */
  inlineBelowChars?: number;
  /** A page still running after this is abandoned: its worker is replaced and the promise rejects. Default 60 s. */
  taskTimeoutMs?: number;
}

interface Pending {
  id: number;
  html: string;
  options: FormatOptions;
  resolve: (page: FormattedPage) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  task?: Pending;
  timer?: NodeJS.Timeout;
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

  constructor(opts: ExtractionPoolOptions) {
    this.converter = opts.markdownConverter;
    this.timeoutMs = opts.taskTimeoutMs ?? 60_000;
    this.inlineBelowChars = opts.inlineBelowChars ?? 64 * 1024;
    this.workerUrl = opts.workerUrl ?? new URL('./pool-worker.js', import.meta.url);
    const threads = Math.max(0, Math.floor(opts.threads));
    if (threads > 0 && !existsSync(fileURLToPath(this.workerUrl))) {
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
    if (this.slots.length === 0 || html.length < this.inlineBelowChars) {
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

  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.splice(0)) p.reject(new Error('ExtractionPool is closed'));
    await Promise.all(
      this.slots.splice(0).map(async (slot) => {
        if (slot.timer) clearTimeout(slot.timer);
        slot.task?.reject(new Error('ExtractionPool is closed'));
        slot.task = undefined;
        await slot.worker.terminate();
      }),
    );
  }

  private spawn(): Slot {
    const worker = new Worker(this.workerUrl, { workerData: { markdownConverter: this.converter } });
    const slot: Slot = { worker };
    worker.unref();
    worker.on('message', (msg: { id: number; page: FormattedPage }) => {
      const task = slot.task;
      if (!task || task.id !== msg.id) return;
      this.finish(slot);
      task.resolve(msg.page);
      this.dispatch();
    });
    worker.on('error', (err) => this.replace(slot, err));
    worker.on('exit', (code) => {
      if (!this.closed) this.replace(slot, new Error(`extraction worker exited with code ${code}`));
    });
    return slot;
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.task = undefined;
    if (this.queue.length === 0) slot.worker.unref();
  }

  /** A worker died or hung: fail its task and put a fresh worker in its place. */
  private replace(slot: Slot, err: Error): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    const task = slot.task;
    this.finish(slot);
    slot.worker.removeAllListeners('exit');
    void slot.worker.terminate();
    if (this.closed) return;
    this.slots[i] = this.spawn();
    task?.reject(err);
    this.dispatch();
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.task) continue;
      const task = this.queue.shift() as Pending;
      slot.task = task;
      slot.worker.ref();
      slot.timer = setTimeout(() => this.replace(slot, new Error(`extraction timed out after ${this.timeoutMs} ms`)), this.timeoutMs);
      slot.worker.postMessage({ id: task.id, html: task.html, options: task.options });
    }
  }
}
