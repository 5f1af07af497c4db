/**
 * Resident memory of a process and its descendants, read from /proc (Linux). Chromium's renderers are forked by
 * its zygote, so they are descendants of the browser process, not children: the tree is rebuilt from every
 * process's parent id (/proc/<pid>/stat), and only the tree's members are read further (VmRSS, command line).
 */
import fs from 'node:fs';

export interface ProcessMemory {
  pid: number;
  /** Resident set size in MiB (0 for a zombie). */
  rssMb: number;
  /** A Chromium renderer (`--type=renderer` on its command line): one per site per context. */
  renderer: boolean;
}

interface StatLine {
  ppid: number;
  zombie: boolean;
}

/** Fields of /proc/<pid>/stat after the parenthesised command name (which may itself contain spaces). */
function readStat(pid: number): StatLine | null {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return null; // exited meanwhile
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is the state, [1] the parent id (proc(5): fields 3 and 4).
  return { ppid: Number(fields[1]), zombie: fields[0] === 'Z' || fields[0] === 'X' };
}

/** Fields of /proc/<pid>/status in MiB (status reports kB, independent of the page size); {} when it is gone. */
function statusMb(pid: number | 'self'): Record<string, number> {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/status`, 'latin1');
  } catch {
    return {};
  }
  const fields: Record<string, number> = {};
  for (const match of text.matchAll(/^(\w+):\s+(\d+) kB$/gm)) fields[match[1]] = Number(match[2]) / 1024;
  return fields;
}

/** VmRSS in MiB; 0 when the process is gone. */
export function residentMb(pid: number | 'self'): number {
  return statusMb(pid).VmRSS ?? 0;
}

/**
 * Resident memory the process does not share with its siblings, MiB: anonymous pages (JS heaps, ArrayBuffers, pixel
 * buffers) plus shared memory. The file-backed rest — mostly the Chromium binary, mapped by every process — would be
 * counted once per process in a sum of RSS (an idle browser with two pages: ~970 MiB of RSS, ~230 MiB of this).
 */
export function privateMb(pid: number): number {
  const fields = statusMb(pid);
  return (fields.RssAnon ?? 0) + (fields.RssShmem ?? 0);
}

function isRenderer(pid: number): boolean {
  try {
    // Chromium rewrites a child's title, so the switches may be separated by spaces rather than NULs.
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('--type=renderer');
  } catch {
    return false;
  }
}

/** `root` and every live descendant with its RSS; empty when `root` is gone or /proc is unavailable. */
export function processTreeMemory(root: number): ProcessMemory[] {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  const stats = new Map<number, StatLine>();
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    const stat = readStat(pid);
    if (!stat) continue;
    stats.set(pid, stat);
    const siblings = children.get(stat.ppid);
    if (siblings) siblings.push(pid);
    else children.set(stat.ppid, [pid]);
  }
  if (!stats.has(root)) return [];
  const tree: ProcessMemory[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    const stat = stats.get(pid) as StatLine;
    if (!stat.zombie) tree.push({ pid, rssMb: residentMb(pid), renderer: pid !== root && isRenderer(pid) });
    stack.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** SIGKILL, ignoring a process that is already gone. */
export function killProcess(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
