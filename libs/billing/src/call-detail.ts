/**
 * The per-URL outcomes a call over URLs leaves in the request log (the console's request detail), bounded: at most
 * MAX_URLS entries, each URL and error cut to a few hundred characters, so a row stays small whatever was asked.
 */
import type { CallDetail } from '#db';

const MAX_URLS = 100;
const MAX_URL_CHARS = 500;
const MAX_ERROR_CHARS = 300;

export function callDetailOf(results: ReadonlyArray<{ url: string; status_code?: number; error?: string; cache_state?: 'hit' | 'miss' }>): CallDetail {
  const urls: CallDetail['urls'] = [];
  for (let i = 0; i < results.length && i < MAX_URLS; i++) {
    const r = results[i];
    const entry: CallDetail['urls'][number] = { url: r.url.slice(0, MAX_URL_CHARS) };
    if (r.status_code !== undefined) entry.status_code = r.status_code;
    if (r.error !== undefined) entry.error = r.error.slice(0, MAX_ERROR_CHARS);
    if (r.cache_state !== undefined) entry.cache_state = r.cache_state;
    urls.push(entry);
  }
  return results.length > MAX_URLS ? { urls, more: results.length - MAX_URLS } : { urls };
}
