/**
 * Firecrawl's error answers: `{ success: false, error, code?, details? }` with its statuses — 400 with the validation
 * issues, 401, 402 when the credits are gone, 404 for a job that is not there (or not yours), 408 for a scrape that ran
 * out of time, 429 for the concurrency limit — from Trawl's error codes.
 */
import { ErrorCode, TrawlError, httpStatusOf } from '#contracts';
import type { InputIssue } from './input.js';

export interface FirecrawlErrorBody {
  success: false;
  error: string;
  code?: string;
  details?: unknown;
}

const STATUS: Partial<Record<ErrorCode, number>> = {
  [ErrorCode.INVALID_PARAMETER]: 400,
  [ErrorCode.INVALID_REQUEST]: 400,
  [ErrorCode.UNAUTHORIZED]: 401,
  [ErrorCode.CREDITS_EXHAUSTED]: 402,
  [ErrorCode.INSUFFICIENT_CREDITS]: 402,
  [ErrorCode.NOT_FOUND]: 404,
  [ErrorCode.TIMEOUT]: 408,
  [ErrorCode.CONCURRENCY_LIMIT]: 429,
  [ErrorCode.BLOCKED_ADDRESS]: 403,
  /** A failed action fails the scrape, as Firecrawl's does (500, not 502, which firecrawl-js retries). */
  [ErrorCode.ACTION_FAILED]: 500,
};

const CODES: Partial<Record<ErrorCode, string>> = {
  [ErrorCode.INVALID_PARAMETER]: 'BAD_REQUEST',
  [ErrorCode.INVALID_REQUEST]: 'BAD_REQUEST',
  [ErrorCode.TIMEOUT]: 'SCRAPE_TIMEOUT',
  [ErrorCode.ACTION_FAILED]: 'SCRAPE_ACTION_ERROR',
};

export function firecrawlErrorStatus(code: string): number {
  return STATUS[code as ErrorCode] ?? httpStatusOf(code as ErrorCode);
}

export function firecrawlError(code: string, message: string, issues?: InputIssue[]): FirecrawlErrorBody {
  const body: FirecrawlErrorBody = { success: false, error: code === ErrorCode.UNAUTHORIZED ? `Unauthorized: ${message}` : message, code: CODES[code as ErrorCode] ?? code };
  if (issues) body.details = issues;
  return body;
}

/**
 * A scrape whose LLM format (`summary`, `json`) failed: answered 500 with the LLM's code (`LLM_TIMEOUT`,
 * `LLM_INVALID_OUTPUT`, …), as Firecrawl answers a failed scrape — not 502, which firecrawl-js retries, spending the
 * LLM's tokens again. Nothing is charged.
 */
export class FormatFailedError extends TrawlError {
  /** `reason`: the LLM's `CODE: message`. */
  constructor(
    readonly format: string,
    readonly reason: string,
  ) {
    super(ErrorCode.UPSTREAM_FAILED, `format ${format} failed: ${reason} (nothing was charged)`);
  }

  get firecrawlCode(): string {
    return /^[A-Z_]+(?=:)/.exec(this.reason)?.[0] ?? ErrorCode.UPSTREAM_FAILED;
  }
}
