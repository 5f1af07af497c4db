/**
 * Admission control for render jobs: at most `limit` run at once (one BrowserContext each), and — when a memory
 * floor is configured — no new job starts while free memory is below it, unless nothing is running (so the pool
 * always makes progress). Waiters are served first come, first served and give up at their deadline.
 */
import { ErrorCode, TrawlError } from '#contracts';

export interface MemoryFloor {
  minFreeMb: number;
  freeMb: () => number;
}

interface Waiter {
  admit: () => void;
}

export class JobGate {
  private running = 0;
  private readonly waiters: Waiter[] = [];

  constructor(
    private readonly limit: number,
    private readonly memory: MemoryFloor | null = null,
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('JobGate limit must be a positive integer');
  }

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiters.length;
  }

  /** Resolves with a release function once admitted; rejects with TIMEOUT when `deadline` (performance.now()) passes. */
  acquire(deadline: number): Promise<() => void> {
    if (this.waiters.length === 0 && this.canAdmit()) {
      this.running++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        admit: () => {
          clearTimeout(timer);
          resolve(this.releaser());
        },
      };
      const timer = setTimeout(() => {
        const index = this.waiters.indexOf(waiter);
        if (index !== -1) this.waiters.splice(index, 1);
        reject(new TrawlError(ErrorCode.TIMEOUT, 'No render slot became free within the job budget', 'transient'));
      }, Math.max(0, deadline - performance.now()));
      this.waiters.push(waiter);
    });
  }

  private canAdmit(): boolean {
    if (this.running >= this.limit) return false;
    if (this.memory && this.running > 0 && this.memory.freeMb() < this.memory.minFreeMb) return false;
    return true;
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      this.pump();
    };
  }

  private pump(): void {
    while (this.waiters.length > 0 && this.canAdmit()) {
      const next = this.waiters.shift() as Waiter;
      this.running++;
      next.admit();
    }
  }
}
