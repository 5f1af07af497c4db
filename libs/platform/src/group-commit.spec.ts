import { describe, expect, it } from '@jest/globals';
import { GroupCommit } from './group-commit.js';

describe('GroupCommit', () => {
  it("writes one turn's items under a key together, and the items that come while it is in flight in the next flush", async () => {
    const flushes: Array<[string, number[]]> = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const commit = new GroupCommit<number, number>(async (key, items) => {
      flushes.push([key, items]);
      if (flushes.length === 1) await held;
      return items.map((n) => n * 10);
    });
    const first = [commit.add('a', 1), commit.add('a', 2), commit.add('b', 3)];
    await new Promise((turn) => setImmediate(turn));
    const later = [commit.add('a', 4), commit.add('a', 5)];
    release();
    expect(await Promise.all([...first, ...later])).toEqual([10, 20, 30, 40, 50]);
    expect(flushes).toEqual([['a', [1, 2]], ['b', [3]], ['a', [4, 5]]]);
  });

  it('flushes a repeated item once and answers its repeats from the first outcome', async () => {
    const flushed: string[][] = [];
    const commit = new GroupCommit<{ id: string }, string>(
      async (_key, items) => (flushed.push(items.map((i) => i.id)), items.map((i) => `stored ${i.id}`)),
      { repeats: { identity: (item) => item.id, repeat: (first) => `again (${first})` } },
    );
    const outcomes = await Promise.all(['x', 'y', 'x', 'x'].map((id) => commit.add('k', { id })));
    expect(flushed).toEqual([['x', 'y']]);
    expect(outcomes).toEqual(['stored x', 'stored y', 'again (stored x)', 'again (stored x)']);
  });

  it('with a linger, writes items of later turns in the first flush too', async () => {
    const flushes: number[][] = [];
    const commit = new GroupCommit<number, number>(async (_key, items) => (flushes.push(items), items), { lingerMs: 500 });
    const first = commit.add('k', 1);
    await new Promise((turn) => setImmediate(turn));
    const second = commit.add('k', 2);
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(flushes).toEqual([[1, 2]]);
  });
});
