/**
 * Parsing a Firecrawl body: every issue of the zod schema becomes a 400 in Firecrawl's shape — the first issue's
 * message names the field (camelCase, as the client sent it) and `details` lists them all — before anything is charged.
 */
import type { z } from 'zod';
import { ErrorCode, TrawlError } from '#contracts';

export interface InputIssue {
  path: Array<string | number>;
  message: string;
}

/** A refused Firecrawl request body or query, with every issue found (Firecrawl's `details`). */
export class FirecrawlInputError extends TrawlError {
  constructor(
    message: string,
    readonly issues: InputIssue[],
  ) {
    super(ErrorCode.INVALID_PARAMETER, message);
  }
}

export function parseFirecrawl<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({ path: issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)), message: describe(issue) }));
  throw new FirecrawlInputError(issues[0].message, issues);
}

/** A refusal found after the schema (a cross-field rule): the same error, one issue. */
export function refuse(path: string, message: string): never {
  throw new FirecrawlInputError(`${path}: ${message}`, [{ path: path.split('.'), message: `${path}: ${message}` }]);
}

function describe(issue: z.core.$ZodIssue): string {
  const where = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => (where ? `${where}.${k}` : k));
    return `Unrecognized ${keys.length === 1 ? 'key' : 'keys'} in body: ${keys.join(', ')} (not supported by this server)`;
  }
  if (!where) return issue.message === 'Invalid input: expected object, received undefined' ? 'the body must be a JSON object' : issue.message;
  return issue.message.startsWith(where) ? issue.message : `${where}: ${issue.message}`;
}
