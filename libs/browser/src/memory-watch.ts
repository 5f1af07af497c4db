/**
 * Bounds one browser's memory while it has jobs: every `sampleMs` it lists the browser's processes (over CDP, which
 * the browser process answers even while a renderer spins in a script) and reads each one's own resident memory
 * from /proc (anonymous + shared-memory pages: a plain RSS sum would count the mapped binary once per process).
 * - A renderer past `pageMb` is killed at once: only the pages it hosts crash (one context's page; contexts never
 *   share a renderer), and their jobs fail as TOO_LARGE. A renderer that was last seen at half the limit or more and
 *   is gone by the next sample died of memory too (V8's heap cap, `--max-old-space-size`, the first line).
 * - The whole browser past `browserMb` (many big pages together, or growth outside the renderers) is reported to
 *   the pool, which kills and relaunches it.
 * A page crash is attributed to memory when such a renderer death happened within a few seconds of it: the browser
 * does not say which page a renderer process hosted, so a coincident unrelated crash could be counted too.
 */
import { killProcess, privateMb } from './process-memory.js';

export interface MemoryLimits {
  /** Private resident memory (privateMb) one renderer process may reach, MiB; 0 = unbounded. */
  pageMb: number;
  /** Private resident memory all of the browser's processes may reach together, MiB; 0 = unbounded. */
  browserMb: number;
  sampleMs: number;
}

export interface BrowserProcess {
  pid: number;
  /** CDP SystemInfo process type: `browser`, `renderer`, `GPU`, a utility service name… */
  type: string;
}

export interface MemoryProbe {
  /** The browser's processes; rejects when the browser is gone. */
  processes(): Promise<BrowserProcess[]>;
  /** The process's own resident memory, MiB (see privateMb); 0 when it is gone. */
  memoryMb(pid: number): number;
  kill(pid: number): void;
}

export const procMemoryProbe = (processes: () => Promise<BrowserProcess[]>): MemoryProbe => ({
  processes,
  memoryMb: privateMb,
  kill: killProcess,
});

/** How close to a page's crash a renderer death must be to explain it. */
const ATTRIBUTION_WINDOW_MS = 3_000;

export class MemoryWatch {
  /** Highest total private memory of the browser seen, MiB. */
  peakMb = 0;
  /** Renderers killed past the page limit. */
  rendererKills = 0;
  private timer: NodeJS.Timeout | null = null;
  private sampling: Promise<void> | null = null;
  /** Renderers at half the page limit or more at the last sample, by pid. */
  private readonly big = new Set<number>();
  private lastDeathAt = Number.NEGATIVE_INFINITY;
  private overReported = false;

  constructor(
    private readonly limits: MemoryLimits,
    private readonly probe: MemoryProbe,
    /** The browser went past `browserMb` (reported once). */
    private readonly onBrowserOver: (totalMb: number) => void,
  ) {}

  get enabled(): boolean {
    return this.limits.pageMb > 0 || this.limits.browserMb > 0;
  }

  /** Samples every `sampleMs` until `stop()`; the timer does not keep the process alive. */
  start(): void {
    if (this.timer || !this.enabled) return;
    this.timer = setInterval(() => void this.sample(), this.limits.sampleMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One sample (single flight: a call while one runs waits for that one). */
  sample(): Promise<void> {
    this.sampling ??= this.sampleOnce().finally(() => {
      this.sampling = null;
    });
    return this.sampling;
  }

  /** Whether a renderer of this browser died of memory near now; takes a fresh sample first. */
  async pageOutOfMemory(): Promise<boolean> {
    await this.sample();
    return performance.now() - this.lastDeathAt <= ATTRIBUTION_WINDOW_MS;
  }

  private async sampleOnce(): Promise<void> {
    let processes: BrowserProcess[];
    try {
      processes = await this.probe.processes();
    } catch {
      return; // the browser is gone: its disconnect handling fails the jobs
    }
    const now = performance.now();
    const { pageMb, browserMb } = this.limits;
    let total = 0;
    const alive = new Set<number>();
    for (const { pid, type } of processes) {
      const rss = this.probe.memoryMb(pid);
      if (type !== 'renderer' || pageMb <= 0) {
        total += rss;
        continue;
      }
      if (rss > pageMb) {
        this.probe.kill(pid);
        this.rendererKills++;
        this.lastDeathAt = now;
        this.big.delete(pid);
        continue;
      }
      if (rss === 0) continue; // exited between the listing and the read
      total += rss;
      alive.add(pid);
      if (rss >= pageMb / 2) this.big.add(pid);
      else this.big.delete(pid);
    }
    for (const pid of this.big) {
      if (alive.has(pid)) continue;
      this.big.delete(pid);
      this.lastDeathAt = now;
    }
    this.peakMb = Math.max(this.peakMb, total);
    if (browserMb > 0 && total > browserMb && !this.overReported) {
      this.overReported = true;
      this.onBrowserOver(total);
    }
  }
}
