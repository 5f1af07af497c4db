/**
 * Query-string validation helpers: every parameter is checked before anything is charged, and a failure names
 * the parameter (400 INVALID_PARAMETER).
 */
import { z } from 'zod';
import { ErrorCode } from '../error-codes.js';
import { TrawlError } from '../trawl-error.js';

/** Spec booleans: exactly `true` or `false`. */
export const queryBoolean = (name: string, fallback: boolean) =>
  z
    .string({ error: `${name} must be true or false` })
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return fallback;
      const v = value.trim().toLowerCase();
      if (v === 'true') return true;
      if (v === 'false') return false;
      ctx.addIssue({ code: 'custom', message: `${name} must be true or false` });
      return z.NEVER;
    });

/** Parses a raw query object with a zod schema; the first issue becomes the 400 message. */
export function parseQuery<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const query = (raw ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value)) throw new TrawlError(ErrorCode.INVALID_PARAMETER, `${name} was given more than once`);
  }
  const parsed = schema.safeParse(query);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const param = issue.path.join('.') || 'query';
    const message = issue.message.startsWith(param) ? issue.message : `${param}: ${issue.message}`;
    throw new TrawlError(ErrorCode.INVALID_PARAMETER, message);
  }
  return parsed.data;
}
