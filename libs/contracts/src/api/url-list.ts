/**
 * The `urls` parameter of `/crawl` and `/headful-browser` (spec §4.4, §4.5): one URL or a comma-separated list.
 *
 * The contract gives every URL its own result, with a per-URL `error` for one that failed (0 credits), and says
 * nothing about malformed entries. So one malformed entry among several fails that URL — its result carries
 * `INVALID_URL: …`, it costs nothing — and the well-formed ones are crawled. A request with no well-formed URL at all
 * (every entry malformed, or none given) is still a 400 naming `urls`: there is nothing to crawl.
 *
 * The parsed list is the well-formed URLs (normalised, duplicates removed, in request order), so every consumer
 * crawls exactly those; the rejected entries ride along on it as `rejected`, each with the position its result takes.
 */
import { z } from 'zod';
import { ErrorCode } from '../error-codes.js';

export const MAX_URL_LENGTH = 2048;

/** A malformed entry of `urls`: as given (trimmed), why it is not a URL, and where its result goes among the results. */
export interface RejectedUrl {
  url: string;
  /** `INVALID_URL: …`, the per-URL error form (`CODE: message`). */
  error: string;
  /** Index of this entry's result in the response's results (entries in request order, duplicates removed). */
  at: number;
}

/** The well-formed URLs to fetch, carrying the malformed entries that fail on their own (none when absent). */
export type UrlList = string[] & { rejected?: readonly RejectedUrl[] };

export function urlListField(maxUrls: number) {
  return z
    .array(z.string(), { error: 'urls is required: one URL or a comma-separated list' })
    .transform((parts, ctx): UrlList => {
      const valid: string[] = [];
      const rejected: RejectedUrl[] = [];
      const seen = new Set<string>();
      let firstError: string | undefined;
      for (const part of parts) {
        const given = part.trim();
        const url = normaliseUrl(given);
        const key = typeof url === 'string' ? url : `\0${given}`;
        if (seen.has(key)) continue;
        seen.add(key);
        if (typeof url === 'string') valid.push(url);
        else {
          firstError ??= url.error;
          rejected.push({ url: given, error: `${ErrorCode.INVALID_URL}: ${url.error}`, at: valid.length + rejected.length });
        }
      }
      if (valid.length === 0) {
        ctx.addIssue({ code: 'custom', message: firstError ? `urls: ${firstError}` : 'urls is required: one URL or a comma-separated list' });
        return z.NEVER;
      }
      const count = valid.length + rejected.length;
      if (count > maxUrls) {
        ctx.addIssue({ code: 'custom', message: `urls has ${count} URLs; the maximum is ${maxUrls} per request` });
        return z.NEVER;
      }
      return rejected.length ? Object.assign(valid, { rejected }) : valid;
    });
}

/**
 * The results of the well-formed URLs (`fetched`, in `urls` order) with a result for each rejected entry put back at
 * its place, so the response has one result per distinct entry in request order.
 */
export function withRejected<T>(fetched: T[], urls: UrlList, resultOf: (rejected: RejectedUrl) => T): T[] {
  const rejected = urls.rejected ?? [];
  if (rejected.length === 0) return fetched;
  const out: T[] = [];
  let next = 0;
  for (const r of rejected) {
    while (out.length < r.at && next < fetched.length) out.push(fetched[next++]);
    out.push(resultOf(r));
  }
  while (next < fetched.length) out.push(fetched[next++]);
  return out;
}

/** An absolute http(s) URL, normalised by WHATWG URL (so duplicates compare equal), or why it is not one. */
export function normaliseUrl(input: string): string | { error: string } {
  const shown = input.length > 80 ? `${input.slice(0, 80)}…` : input;
  if (input.length > MAX_URL_LENGTH) return { error: `a URL is longer than ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { error: `"${shown}" is not a valid absolute URL (include http:// or https://; encode commas inside a URL as %2C)` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { error: `"${shown}" must use http or https` };
  if (!url.hostname) return { error: `"${shown}" has no host` };
  if (url.username || url.password) return { error: `"${shown}" must not carry credentials` };
  url.hash = '';
  return url.toString();
}
