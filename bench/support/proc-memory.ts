/** Resident memory of a process and of its descendants (Chromium under a worker), read from /proc on Linux. */
import { readdirSync, readFileSync } from 'node:fs';

export interface TreeMemory {
  /** VmRSS of the process itself, bytes. */
  self: number;
  /** Sum of VmRSS of every descendant, bytes (shared pages are counted once per process: an upper bound). */
  descendants: number;
  /** How many descendants are alive. */
  processes: number;
}

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0; // exited
  }
}

function parents(): Map<number, number> {
  const ppid = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      ppid.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // exited while listing
    }
  }
  return ppid;
}

/** The pids below `root` in the process tree. */
export function descendantsOf(root: number): number[] {
  const ppid = parents();
  const out: number[] = [];
  const frontier = [root];
  while (frontier.length > 0) {
    const parent = frontier.pop()!;
    for (const [pid, p] of ppid) {
      if (p === parent) {
        out.push(pid);
        frontier.push(pid);
      }
    }
  }
  return out;
}

export function treeMemory(root: number): TreeMemory {
  const children = descendantsOf(root);
  return { self: statusField(root, 'VmRSS'), descendants: children.reduce((sum, pid) => sum + statusField(pid, 'VmRSS'), 0), processes: children.length };
}

/** Peak resident memory (VmHWM) of one process, bytes. */
export const peakRss = (pid: number): number => statusField(pid, 'VmHWM');

export const mib = (bytes: number): number => Math.round(bytes / 2 ** 20);
