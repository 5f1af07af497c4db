/**
 * Error answers in another API's shape, for the requests under its paths: the http layer's hook for the compatible
 * APIs the gateway also serves (the Firecrawl routes register theirs). Every other request's error is Trawl's
 * `{ "error": { "code", "message" } }`. ErrorFilter asks here for a handled error; bootstrap.ts for Fastify's own error
 * replies (a malformed or oversize body), which it has already put in Trawl's shape.
 */
import { Injectable } from '@nestjs/common';

/** An error as ErrorFilter describes it, in Trawl's terms. */
export interface DescribedError {
  status: number;
  code: string;
  message: string;
}

export interface ErrorShape {
  /** The requests answered in this shape (matched against the URL's path and query). */
  paths: RegExp;
  /** A handled error's status and body; `exception` is what was thrown (for details Trawl's shape leaves out). */
  answer(described: DescribedError, exception: unknown): { status: number; body: unknown };
  /** A body already in Trawl's shape (JSON text), in this one. */
  rewrite(trawlBody: string): string;
}

@Injectable()
export class ErrorShapes {
  private readonly shapes: ErrorShape[] = [];

  register(shape: ErrorShape): void {
    this.shapes.push(shape);
  }

  /** The shape for a request URL, or undefined for Trawl's own. */
  for(url: string): ErrorShape | undefined {
    return this.shapes.find((shape) => shape.paths.test(url));
  }
}
