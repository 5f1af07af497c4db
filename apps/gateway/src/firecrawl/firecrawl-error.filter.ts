/**
 * Errors of the Firecrawl-compatible routes in Firecrawl's shape (`{ success: false, error, code?, details? }`, its
 * statuses: 402 for credits, 408 for a scrape timeout, 400 with every validation issue), logged to the request log
 * exactly as the native API's errors are (ErrorFilter).
 */
import { Catch } from '@nestjs/common';
import { FirecrawlInputError, firecrawlError, firecrawlErrorStatus } from '#firecrawl';
import { ErrorFilter } from '../http/error.filter.js';

@Catch()
export class FirecrawlErrorFilter extends ErrorFilter {
  protected override answer(described: { status: number; code: string; message: string }, exception: unknown): { status: number; body: unknown } {
    const status = firecrawlErrorStatus(described.code);
    const issues = exception instanceof FirecrawlInputError ? exception.issues : described.status === 400 ? [{ path: [], message: described.message }] : undefined;
    return { status, body: firecrawlError(described.code, described.message, issues) };
  }
}
