/**
 * Errors under `/v1/` and `/v2/` (the Firecrawl-compatible routes, a body that does not parse and an unknown route
 * included) leave in Firecrawl's shape, `{ success: false, error, code?, details? }`, with its statuses: 402 for
 * credits, 408 for a scrape timeout, 400 with every validation issue, 500 with the LLM's code for a failed LLM format. Registered with the http layer's ErrorShapes;
 * ErrorFilter logs them like any other.
 */
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { FirecrawlInputError, FormatFailedError, firecrawlError, firecrawlErrorStatus } from '#firecrawl';
import { ErrorShapes, type DescribedError, type ErrorShape } from '../http/error-shapes.js';

@Injectable()
export class FirecrawlErrorShape implements ErrorShape, OnModuleInit {
  readonly paths = /^\/v[12](\/|$)/;

  constructor(private readonly shapes: ErrorShapes) {}

  onModuleInit(): void {
    this.shapes.register(this);
  }

  answer(described: DescribedError, exception: unknown): { status: number; body: unknown } {
    if (exception instanceof FormatFailedError) return { status: 500, body: firecrawlError(exception.firecrawlCode, described.message) };
    const issues = exception instanceof FirecrawlInputError ? exception.issues : described.status === 400 ? [{ path: [], message: described.message }] : undefined;
    return { status: firecrawlErrorStatus(described.code), body: firecrawlError(described.code, described.message, issues) };
  }

  /** Fastify's own error replies (a malformed JSON body, an oversize one), already in Trawl's shape, in Firecrawl's. */
  rewrite(trawlBody: string): string {
    const { error } = JSON.parse(trawlBody) as { error: { code: string; message: string } };
    return JSON.stringify(firecrawlError(error.code, error.message, [{ path: [], message: error.message }]));
  }
}
