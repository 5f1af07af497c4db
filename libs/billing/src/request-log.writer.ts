/** Buffers request-log rows and writes them in batches, off the request path. */
import type { RequestLogEntry, RequestLogRepository } from '#db';

export class RequestLogWriter {
  private buffer: RequestLogEntry[] = [];
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly repository: RequestLogRepository,
    private readonly onError: (error: unknown) => void,
    flushEveryMs = 250,
    private readonly maxBatch = 500,
  ) {
    this.timer = setInterval(() => void this.flush(), flushEveryMs);
    this.timer.unref();
  }

  write(entry: RequestLogEntry): void {
    this.buffer.push(entry);
    if (this.buffer.length >= this.maxBatch) void this.flush();
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      while (this.buffer.length > 0) {
        const batch = this.buffer.splice(0, this.maxBatch);
        await this.repository.insertMany(batch).catch(this.onError);
      }
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
