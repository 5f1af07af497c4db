/**
 * A crawl's progress on stderr: on a terminal, one bar redrawn in place (pages finished / discovered, failed,
 * credits); otherwise a plain line each time the counts change, so a log file gets a readable history.
 */
import type { CrawlJobSummary } from '#contracts';

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

const BAR_WIDTH = 24;

export class CrawlProgress {
  private last = '';
  private drawn = false;

  constructor(private readonly stream: ProgressStream) {}

  update(crawl: CrawlJobSummary): void {
    const c = crawl.counts;
    if (this.stream.isTTY) {
      const finished = c.done + c.failed + c.skipped;
      const share = c.discovered > 0 ? Math.min(1, finished / c.discovered) : 0;
      const filled = Math.round(share * BAR_WIDTH);
      const line =
        `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${c.done}/${c.discovered} pages` +
        ` · ${c.failed} failed · ${crawl.credits} credits · ${crawl.status}`;
      const width = this.stream.columns ?? 80;
      this.stream.write(`\r\x1b[2K${line.slice(0, Math.max(10, width - 1))}`);
      this.drawn = true;
      return;
    }
    const line = summaryLine(crawl);
    if (line !== this.last) this.stream.write(`crawl-site: ${line}\n`);
    this.last = line;
  }

  /** Whether the last plain line written is `crawl`'s summary already (the closing summary would repeat it). */
  wrote(crawl: CrawlJobSummary): boolean {
    return !this.stream.isTTY && this.last === summaryLine(crawl);
  }

  /** Ends the bar's line (the next message starts on its own line). */
  finish(): void {
    if (this.drawn) this.stream.write('\n');
    this.drawn = false;
  }
}

export function summaryLine(crawl: CrawlJobSummary): string {
  const c = crawl.counts;
  return `${crawl.status} — ${c.done} pages stored of ${c.discovered} discovered, ${c.failed} failed, ${c.skipped} skipped, ${crawl.credits} credits`;
}
