import { describe, expect, it } from '@jest/globals';
import type { CrawlJobSummary } from '#contracts';
import { CrawlProgress } from './crawl-progress.js';

const crawl = (done: number, discovered: number, status: CrawlJobSummary['status'] = 'running'): CrawlJobSummary => ({
  id: 'c',
  kind: 'site',
  status,
  counts: { discovered, done, failed: 1, skipped: 0, pending: discovered - done - 1 },
  credits: done,
  created_at: '',
  expires_at: '',
});

function stream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, isTTY, columns: 80, write: (text: string) => writes.push(text) };
}

describe('CrawlProgress', () => {
  it('redraws one bar in place on a terminal, and ends its line when finished', () => {
    const out = stream(true);
    const progress = new CrawlProgress(out);
    progress.update(crawl(1, 10));
    progress.update(crawl(9, 10));
    progress.finish();
    expect(out.writes[0]).toBe('\r\x1b[2K[#####-------------------] 1/10 pages · 1 failed · 1 credits · running');
    expect(out.writes[1]).toMatch(/^\r\x1b\[2K\[#{24}\] 9\/10 pages/);
    expect(out.writes[2]).toBe('\n');
  });

  it('writes a plain line when the counts change, otherwise', () => {
    const out = stream(false);
    const progress = new CrawlProgress(out);
    progress.update(crawl(1, 10));
    progress.update(crawl(1, 10));
    progress.update(crawl(2, 10, 'completed'));
    progress.finish();
    expect(out.writes).toEqual([
      'crawl-site: running — 1 pages stored of 10 discovered, 1 failed, 0 skipped, 1 credits\n',
      'crawl-site: completed — 2 pages stored of 10 discovered, 1 failed, 0 skipped, 2 credits\n',
    ]);
    // The closing summary is that last line already: the command does not write it twice.
    expect(progress.wrote(crawl(2, 10, 'completed'))).toBe(true);
    expect(progress.wrote(crawl(3, 10, 'completed'))).toBe(false);
    const tty = new CrawlProgress(stream(true));
    tty.update(crawl(2, 10, 'completed'));
    expect(tty.wrote(crawl(2, 10, 'completed'))).toBe(false);
  });
});
