/**
 * Crawler traps (calendars that link to the next day forever, session ids in paths, endless pagination) generate
 * unbounded URLs of one shape. A crawl caps how many URLs of one shape per host it admits; this names the shape.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A hex id: 8+ hex digits with at least one digit (so `deadbeef`-like words stay, `9f8e7d6c` goes). */
const HEX_ID = /^(?=[0-9a-f]*\d)[0-9a-f]{8,}$/i;
/** A token (session, hash, base64): 16+ word characters mixing letters and digits. */
const TOKEN = /^(?=\w*\d)(?=\w*[a-z])\w{16,}$/i;

/** One word of a path segment (segments split on `-` `.` `,` `~` `+`): ids become {id}, digit runs {n}. */
function wordShape(word: string): string {
  if (HEX_ID.test(word) || TOKEN.test(word)) return '{id}';
  return word.replace(/\d+/g, '{n}');
}

function segmentShape(segment: string): string {
  if (UUID.test(segment)) return '{id}';
  if (ISO_DATE.test(segment)) return '{date}';
  return segment
    .split(/([-.,~+])/)
    .map((part, i) => (i % 2 === 1 ? part : wordShape(part)))
    .join('');
}

/**
 * The URL's path shape for per-pattern caps: digit runs, dates, UUIDs, hex ids, long tokens become placeholders
 * (`/calendar/2024/05/01` → `/calendar/{n}/{n}/{n}`, `/s/9f8e…` → `/s/{id}`); the query's keys kept (sorted,
 * once each, digit runs as {n}), values dropped. The host is not part of it: callers count per host.
 */
export function pathPattern(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const path = parsed.pathname.split('/').map(segmentShape).join('/');
  // Digit runs in keys too: `?p1=…&p2=…` is one shape.
  const keys = [...new Set([...parsed.searchParams.keys()].map((key) => key.replace(/\d+/g, '{n}')))].sort();
  return keys.length === 0 ? path : `${path}?${keys.join('&')}`;
}

/**
 * The pattern a crawl counts a URL under for its trap cap, or '' when the URL is the only one of its pattern: a path
 * of words alone with no query (`/docs/getting-started`) — only the same URL has that pattern, and the seen-set
 * admits it once, so its count could never reach a cap. Counting it anyway would cost the frontier an entry per URL,
 * five times the URL's place in the seen-set (measured: 54 bytes against 11 per URL on a site of word slugs).
 */
export function trapPattern(url: string): string {
  const pattern = pathPattern(url);
  return pattern.includes('{') || pattern.includes('?') ? pattern : '';
}
