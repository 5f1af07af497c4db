/**
 * CPU seconds per group of processes over a window, from /proc (Linux): what the benchmarks use to tell how CPU
 * splits between Trawl's processes, the load side and the shared Postgres + Redis.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

export interface ProcStat {
  pid: number;
  ppid: number;
  comm: string;
  /** utime + stime in ticks (all threads of the process; not its children). */
  ticks: number;
}

/** The shared services' process names (they serve other users of the machine too: an upper bound for a run's share). */
export const SERVICE_PROCESSES = new Set(['postgres', 'redis-server']);

export function readProcs(): ProcStat[] {
  const out: ProcStat[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the parenthesised command name: state(3) ppid(4) ... utime(14) stime(15).
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      out.push({ pid: Number(entry), ppid: f[1], comm, ticks: f[11] + f[12] });
    } catch {
      // the process exited while we listed /proc
    }
  }
  return out;
}

/** Puts a process in a group when first seen, or leaves it out (undefined). `under(root)`: is it a descendant of root. */
export type Classify<G extends string> = (proc: ProcStat, under: (root: number) => boolean) => G | undefined;

/**
 * Samples /proc every `intervalMs` while `work` runs; each process is classified when first seen and credited with the
 * ticks it gained while seen. Sampling, rather than one reading of a tree at each end, keeps the CPU of processes that
 * exit mid-window (Chromium renderers, a recycled browser), of which at most the last interval is lost.
 */
export async function measureCpu<G extends string, T>(
  groups: readonly G[],
  classify: Classify<G>,
  work: () => Promise<T>,
  intervalMs = 200,
): Promise<{ result: T; cpu: Record<G, number> }> {
  const seen = new Map<number, { group: G; first: number; last: number }>();
  let initial = true;
  const sample = (): void => {
    const procs = readProcs();
    const parentOf = new Map(procs.map((p) => [p.pid, p.ppid]));
    for (const p of procs) {
      const known = seen.get(p.pid);
      if (known) {
        known.last = p.ticks;
        continue;
      }
      const under = (root: number): boolean => {
        for (let q = parentOf.get(p.pid), hops = 0; q !== undefined && q > 1 && hops < 64; q = parentOf.get(q), hops++) {
          if (q === root) return true;
        }
        return false;
      };
      const group = classify(p, under);
      // A process already running when the window opens is counted from then; one born later from its birth.
      if (group) seen.set(p.pid, { group, first: initial ? p.ticks : 0, last: p.ticks });
    }
    initial = false;
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  try {
    const result = await work();
    sample();
    const cpu = Object.fromEntries(groups.map((g) => [g, 0])) as Record<G, number>;
    for (const { group, first, last } of seen.values()) cpu[group] += (last - first) / TICKS_PER_SECOND;
    for (const g of groups) cpu[g] = Number(cpu[g].toFixed(2));
    return { result, cpu };
  } finally {
    clearInterval(timer);
  }
}
