// MemoryWatch on a scripted probe: which renderer it kills, which deaths it counts as memory, when it gives up on
// the whole browser.
import { describe, expect, it } from '@jest/globals';
import { MemoryWatch, type BrowserProcess, type MemoryProbe } from './memory-watch.js';

class ScriptedProbe implements MemoryProbe {
  rss = new Map<number, number>();
  types = new Map<number, string>();
  killed: number[] = [];

  set(pid: number, type: string, rssMb: number): this {
    this.types.set(pid, type);
    this.rss.set(pid, rssMb);
    return this;
  }

  exit(pid: number): void {
    this.types.delete(pid);
    this.rss.delete(pid);
  }

  async processes(): Promise<BrowserProcess[]> {
    return [...this.types].map(([pid, type]) => ({ pid, type }));
  }

  memoryMb(pid: number): number {
    return this.rss.get(pid) ?? 0;
  }

  kill(pid: number): void {
    this.killed.push(pid);
    this.exit(pid);
  }
}

const limits = { pageMb: 500, browserMb: 1500, sampleMs: 1_000 };

describe('MemoryWatch', () => {
  it('kills a renderer past the page limit, and only that one, and counts it as a memory death', async () => {
    const probe = new ScriptedProbe().set(1, 'browser', 100).set(2, 'renderer', 499).set(3, 'renderer', 501).set(4, 'GPU', 900);
    const over: number[] = [];
    const watch = new MemoryWatch(limits, probe, (mb) => over.push(mb));
    expect(await watch.pageOutOfMemory()).toBe(true);
    expect(probe.killed).toEqual([3]);
    expect(watch.rendererKills).toBe(1);
    expect(watch.peakMb).toBe(100 + 499 + 900); // the killed renderer no longer counts
    expect(over).toEqual([]);
  });

  it('counts a renderer that vanished after being seen at half the limit or more (V8 heap cap), not a small one', async () => {
    const probe = new ScriptedProbe().set(1, 'browser', 100).set(2, 'renderer', 120).set(3, 'renderer', 260);
    const watch = new MemoryWatch(limits, probe, () => undefined);
    expect(await watch.pageOutOfMemory()).toBe(false);
    probe.exit(2);
    expect(await watch.pageOutOfMemory()).toBe(false);
    probe.exit(3);
    expect(await watch.pageOutOfMemory()).toBe(true);
    expect(probe.killed).toEqual([]);
  });

  it('reports the browser once when all its processes together pass the browser limit', async () => {
    const probe = new ScriptedProbe().set(1, 'browser', 200).set(2, 'renderer', 400).set(3, 'renderer', 400).set(4, 'renderer', 400);
    const over: number[] = [];
    const watch = new MemoryWatch(limits, probe, (mb) => over.push(mb));
    await watch.sample();
    expect(over).toEqual([]);
    probe.set(5, 'renderer', 300);
    await watch.sample();
    await watch.sample();
    expect(over).toEqual([1700]);
    expect(probe.killed).toEqual([]); // no single page is past its own limit
  });

  it('does nothing with both limits off', async () => {
    const probe = new ScriptedProbe().set(1, 'browser', 100).set(2, 'renderer', 90_000);
    const watch = new MemoryWatch({ pageMb: 0, browserMb: 0, sampleMs: 100 }, probe, () => {
      throw new Error('not expected');
    });
    expect(watch.enabled).toBe(false);
    expect(await watch.pageOutOfMemory()).toBe(false);
    expect(probe.killed).toEqual([]);
  });

  it('survives a browser that is gone (the listing rejects)', async () => {
    const probe = new ScriptedProbe();
    probe.processes = () => Promise.reject(new Error('Target closed'));
    const watch = new MemoryWatch(limits, probe, () => undefined);
    expect(await watch.pageOutOfMemory()).toBe(false);
  });
});
