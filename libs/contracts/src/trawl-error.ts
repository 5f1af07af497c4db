import { ErrorCode, isErrorCode } from './error-codes.js';

/**
 * How a failure should be treated by whoever sees it:
 * - `permanent`: retrying cannot help (bad URL, refused address, oversize body).
 * - `transient`: a retry with backoff may succeed (connection reset, 5xx from a proxy).
 * - `blocked`: the target refused us; retry through another proxy/session.
 */
export type ErrorKind = 'permanent' | 'transient' | 'blocked';

export interface SerializedError {
  code: ErrorCode;
  message: string;
  kind: ErrorKind;
}

/** The one error type that crosses process and queue boundaries. */
export class TrawlError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly kind: ErrorKind = 'permanent',
  ) {
    super(message);
    this.name = 'TrawlError';
  }

  get retryable(): boolean {
    return this.kind !== 'permanent';
  }

  toJSON(): SerializedError {
    return { code: this.code, message: this.message, kind: this.kind };
  }

  /** Encodes the error as a string, e.g. for a BullMQ failedReason. */
  serialize(): string {
    return `${TRAWL_ERROR_PREFIX}${JSON.stringify(this.toJSON())}`;
  }

  static deserialize(text: string | undefined | null): TrawlError {
    if (text?.startsWith(TRAWL_ERROR_PREFIX)) {
      try {
        const parsed = JSON.parse(text.slice(TRAWL_ERROR_PREFIX.length)) as Partial<SerializedError>;
        if (isErrorCode(parsed.code) && typeof parsed.message === 'string') {
          return new TrawlError(parsed.code, parsed.message, parsed.kind ?? 'permanent');
        }
      } catch {
        // fall through to the generic error below
      }
    }
    return new TrawlError(ErrorCode.INTERNAL, 'The job failed unexpectedly', 'permanent');
  }

  static from(error: unknown): TrawlError {
    if (error instanceof TrawlError) return error;
    if (error instanceof Error && error.message.startsWith(TRAWL_ERROR_PREFIX)) {
      return TrawlError.deserialize(error.message);
    }
    return new TrawlError(ErrorCode.INTERNAL, 'Internal error', 'permanent');
  }
}

const TRAWL_ERROR_PREFIX = 'trawl-error:';
