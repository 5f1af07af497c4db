/**
 * The page cache's key of one page job: the page (its URL key from #frontier: case, default port, fragment,
 * `index.html`, parameter order and tracking parameters normalised away), the engine that fetches it, and every
 * option of the job that can change what it returns (formats, device, country, screenshot, scope, the chunk query
 * and count, …), hashed. Only what identifies the call and its budget (call id, account, timeout) is left out, so an
 * option a later change adds to the job is part of the key by default: a new option can cost hits, never serve a
 * wrong page. A job that sends its own request headers (and so cookies) is never cached: its answer depends on who
 * asked.
 */
import { createHash } from 'node:crypto';
import type { CrawlPagePayload } from '#contracts';
import { urlKey } from '#frontier';

/** Bumped when what an entry holds changes shape: older entries are then simply never read again. */
const ENTRY_VERSION = 'v1';

/** Fields of a page job that do not change its content. */
const NOT_CONTENT: ReadonlySet<string> = new Set(['callId', 'accountId', 'url', 'timeoutMs']);

/**
 * The hashed key of the job's page, or null when the job may not be cached. `engine`: the engine's id, or what else
 * decides which engine serves the page (the Firecrawl scrape's ladder, e.g. `http>chromium`).
 */
export function pageCacheKey(payload: CrawlPagePayload, engine: string): string | null {
  if (payload.headers && Object.keys(payload.headers).length > 0) return null;
  const url = urlKey(payload.url, undefined, { ignoreQuery: false });
  if (url === null) return null;
  // Headers are none by now (an empty set sends nothing).
  const options = Object.fromEntries(Object.entries(payload).filter(([name]) => !NOT_CONTENT.has(name) && name !== 'headers'));
  return createHash('sha256').update(`${ENTRY_VERSION}\n${engine}\n${url}\n${canonicalJson(options)}`).digest('base64url');
}

/**
 * JSON with object keys sorted and absent, null and false values left out (an option not given and one given as
 * false ask for the same page), so equal option sets hash equal however they were spelled.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const fields = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined && v !== null && v !== false)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`);
    return `{${fields.join(',')}}`;
  }
  return JSON.stringify(value);
}
