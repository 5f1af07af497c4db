/** Buffers request-log rows and writes them in batches, off the request path. */
import type { Logger } from 'pino';
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
    /** Where each row is also written as one `info` line (the request's id, account, endpoint, status, credits, duration, error). */
    private readonly logger?: Pick<Logger, 'info'>,
  ) {
    this.timer = setInterval(() => void this.flush(), flushEveryMs);
    this.timer.unref();
  }

  /** `requestId`: the HTTP request the call served (its log line's `reqId`); the call's own id when not given. */
  write(entry: RequestLogEntry, requestId = entry.id): void {
    this.logger?.info(
      {
        reqId: requestId,
        ...(requestId === entry.id ? {} : { callId: entry.id }),
        accountId: entry.accountId,
        endpoint: entry.endpoint,
        status: entry.status,
        credits: entry.credits,
        durationMs: entry.durationMs,
        errorCode: entry.errorCode,
      },
      'request',
    );
    if (requestId !== entry.id) entry.requestId = requestId;
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
