import { describe, expect, it } from '@jest/globals';
import { CrawlCountBatches, type CrawlCounts } from './crawl-counts.js';

/** A repository whose statements finish when the test says: what each was asked to add, in order. */
function heldRepo() {
  const statements: Array<{ crawlId: string; counts: CrawlCounts; finish: (error?: Error) => void }> = [];
  const repo = {
    addCounts: (crawlId: string, counts: CrawlCounts) =>
      new Promise<void>((resolve, reject) => statements.push({ crawlId, counts: { ...counts }, finish: (error) => (error ? reject(error) : resolve()) })),
  };
  return { repo, statements };
}

const flushed = () => new Promise((next) => setImmediate(next));

describe('CrawlCountBatches', () => {
  it('writes a lone increment at once, and those made while it is in flight together in the next statement', async () => {
    const { repo, statements } = heldRepo();
    const counts = new CrawlCountBatches(repo);
    const done: string[] = [];
    const first = counts.add('c1', { discovered: 3 }).then(() => done.push('first'));
    const second = counts.add('c1', { discovered: 2, skipped: 1 }).then(() => done.push('second'));
    const third = counts.add('c1', { failed: 1 }).then(() => done.push('third'));
    const other = counts.add('c2', { discovered: 7 }).then(() => done.push('other'));
    expect(statements.map((s) => [s.crawlId, s.counts])).toEqual([
      ['c1', { discovered: 3, failed: 0, skipped: 0 }],
      ['c2', { discovered: 7, failed: 0, skipped: 0 }],
    ]);
    statements[0].finish();
    await first;
    await flushed();
    // Not resolved before their own statement commits.
    expect(done).toEqual(['first']);
    expect(statements[2]).toMatchObject({ crawlId: 'c1', counts: { discovered: 2, failed: 1, skipped: 1 } });
    statements[2].finish();
    statements[1].finish();
    await Promise.all([second, third, other]);
    expect(done.sort()).toEqual(['first', 'other', 'second', 'third']);
    expect(statements).toHaveLength(3);
  });

  it('fails the increments of a statement that failed, and goes on with the next', async () => {
    const { repo, statements } = heldRepo();
    const counts = new CrawlCountBatches(repo);
    const first = counts.add('c1', { skipped: 1 });
    const second = counts.add('c1', { skipped: 1 });
    statements[0].finish(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await flushed();
    statements[1].finish();
    await expect(second).resolves.toBeUndefined();
    await expect(counts.add('c1', {})).resolves.toBeUndefined();
    expect(statements).toHaveLength(2);
  });
});
