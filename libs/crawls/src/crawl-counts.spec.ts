import { describe, expect, it } from '@jest/globals';
import type { CrawlErrorRecord } from '#db';
import { CrawlCountBatches, type CrawlCounts } from './crawl-counts.js';

/** A repository whose statements finish when the test says: what each was asked to add, in order. */
function heldRepo() {
  const statements: Array<{ crawlId: string; counts: CrawlCounts; errors: readonly CrawlErrorRecord[]; finish: (error?: Error) => void }> = [];
  const repo = {
    addCounts: (crawlId: string, counts: CrawlCounts, errors: readonly CrawlErrorRecord[] = []) =>
      new Promise<void>((resolve, reject) => statements.push({ crawlId, counts: { ...counts }, errors, finish: (error) => (error ? reject(error) : resolve()) })),
  };
  return { repo, statements };
}

const flushed = () => new Promise((next) => setImmediate(next));

describe('CrawlCountBatches', () => {
  it('writes the increments of one turn together, and those made while it is in flight together in the next statement', async () => {
    const { repo, statements } = heldRepo();
    const counts = new CrawlCountBatches(repo);
    const done: string[] = [];
    const first = counts.add('c1', { discovered: 3 }).then(() => done.push('first'));
    const second = counts.add('c1', { discovered: 2, skipped: 1 }).then(() => done.push('second'));
    const other = counts.add('c2', { discovered: 7 }).then(() => done.push('other'));
    await flushed();
    expect(statements.map((s) => [s.crawlId, s.counts])).toEqual([
      ['c1', { discovered: 5, failed: 0, skipped: 1 }],
      ['c2', { discovered: 7, failed: 0, skipped: 0 }],
    ]);
    // Made while c1's statement is in flight: the next one.
    const third = counts.add('c1', { failed: 1 }).then(() => done.push('third'));
    const fourth = counts.add('c1', { failed: 2 }).then(() => done.push('fourth'));
    await flushed();
    expect(statements).toHaveLength(2);
    statements[0].finish();
    await Promise.all([first, second]);
    await flushed();
    // Not resolved before their own statement commits.
    expect(done.sort()).toEqual(['first', 'second']);
    expect(statements[2]).toMatchObject({ crawlId: 'c1', counts: { discovered: 0, failed: 3, skipped: 0 } });
    statements[2].finish();
    statements[1].finish();
    await Promise.all([third, fourth, other]);
    expect(done.sort()).toEqual(['first', 'fourth', 'other', 'second', 'third']);
    expect(statements).toHaveLength(3);
  });

  it('fails the increments of a statement that failed, and goes on with the next', async () => {
    const { repo, statements } = heldRepo();
    const counts = new CrawlCountBatches(repo);
    const first = counts.add('c1', { skipped: 1 });
    await flushed();
    const second = counts.add('c1', { skipped: 1 });
    statements[0].finish(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await flushed();
    statements[1].finish();
    await expect(second).resolves.toBeUndefined();
    await expect(counts.add('c1', {})).resolves.toBeUndefined();
    expect(statements).toHaveLength(2);
  });

  it("counts discovered URLs later: with the crawl's next statement, or on their own after a while, and keeps them when that fails", async () => {
    const { repo, statements } = heldRepo();
    const counts = new CrawlCountBatches(repo);
    counts.discoveredLater('c1', 4);
    counts.discoveredLater('c1', 2);
    counts.discoveredLater('c2', 5);
    // Nothing written yet: they ride on the next increment of their crawl.
    expect(statements).toHaveLength(0);
    const skipped = counts.add('c1', { skipped: 1 });
    await flushed();
    expect(statements[0]).toMatchObject({ crawlId: 'c1', counts: { discovered: 6, failed: 0, skipped: 1 } });
    statements[0].finish(new Error('connection lost'));
    await expect(skipped).rejects.toThrow('connection lost');
    // A store of c1's pages takes what waits (6 again: the failed statement gave them back).
    expect(counts.take('c1')).toBe(6);
    expect(counts.take('c1')).toBe(0);
    counts.giveBack('c1', 6);
    // The rest goes on its own, one statement per crawl.
    const flushing = counts.flush();
    await flushed();
    expect(statements.slice(1).map((s) => [s.crawlId, s.counts.discovered]).sort()).toEqual([['c1', 6], ['c2', 5]]);
    for (const statement of statements.slice(1)) statement.finish();
    await flushing;
    expect(counts.take('c1') + counts.take('c2')).toBe(0);
  });

  it('writes discovered URLs within a fraction of a second when nothing else writes the crawl', async () => {
    const { repo, statements } = heldRepo();
    const counts = new CrawlCountBatches(repo);
    counts.discoveredLater('c3', 9);
    const deadline = Date.now() + 2_000;
    while (statements.length === 0 && Date.now() < deadline) await new Promise((next) => setTimeout(next, 20));
    expect(statements.map((s) => [s.crawlId, s.counts.discovered])).toEqual([['c3', 9]]);
    statements[0].finish();
  });

  it("writes a crawl's error rows with its increments, in one statement, and each caller waits for its own", async () => {
    const { repo, statements } = heldRepo();
    const counts = new CrawlCountBatches(repo);
    const gone = { url: 'https://a.example/gone', code: 'HTTP_ERROR', message: 'The page answered HTTP 404', robots: false };
    const refused = { url: 'https://a.example/private/', code: 'ROBOTS_DISALLOWED', message: 'robots.txt', robots: true };
    let written = 0;
    const outcomes = [counts.recordError('c1', gone), counts.add('c1', { skipped: 1 }), counts.recordError('c1', refused)].map((p) => p.then(() => written++));
    await flushed();
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({ crawlId: 'c1', counts: { discovered: 0, failed: 0, skipped: 1 }, errors: [gone, refused] });
    expect(written).toBe(0);
    statements[0].finish();
    await Promise.all(outcomes);
    expect(written).toBe(3);
  });
});
