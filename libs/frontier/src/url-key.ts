/**
 * The key of a URL in a crawl's seen-set: one string per resource, so that the spellings a site links the same page
 * by (case, default port, fragment, `index.html`, parameter order, percent-encoding, tracking parameters) are fetched
 * once. The key is itself a fetchable URL: a crawler requests the key, never the raw href.
 */

export interface UrlKeyOptions {
  /** Drop the whole query (Firecrawl's `ignoreQueryParameters`). */
  ignoreQuery: boolean;
}

/**
 * Query parameters that only say where a click came from (analytics and ad click ids): never part of a page's
 * identity. Kept to names that are unambiguous; `ref`, `source` or `id` may select content and stay.
 */
const TRACKING_PARAM =
  /^(utm_[a-z0-9_]+|gclid|gclsrc|dclid|gbraid|wbraid|fbclid|msclkid|twclid|ttclid|yclid|igshid|li_fat_id|mc_cid|mc_eid|_ga|_gl|_hsenc|_hsmi|__hssc|__hstc|__hsfp|hsctatracking|mkt_tok|vero_id|vero_conv|oly_anon_id|oly_enc_id|rb_clickid|s_cid|wickedid|srsltid)$/i;

/** A last path segment that names the directory's default document. */
const INDEX_DOCUMENT = /\/(index\.html?|index\.php|default\.aspx)$/i;

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** RFC 3986 §6.2.2.2: upper-case hex, and unreserved characters that were percent-encoded decoded. */
export function normalisePercentEncoding(text: string): string {
  if (!text.includes('%')) return text;
  return text.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

/** A query without its tracking parameters and empty pieces, its parameters sorted by name (repeats keep their order). */
function normaliseQuery(search: string): string {
  const pieces = search
    .slice(1)
    .split('&')
    .filter((piece) => piece !== '')
    .map(normalisePercentEncoding)
    .map((piece) => ({ piece, name: paramName(piece) }))
    .filter(({ name }) => !TRACKING_PARAM.test(name));
  if (pieces.length === 0) return '';
  // Array.prototype.sort is stable: `a=2&a=1` stays in that order (the order of a repeated parameter can matter).
  pieces.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return `?${pieces.map(({ piece }) => piece).join('&')}`;
}

function paramName(piece: string): string {
  const eq = piece.indexOf('=');
  const raw = eq === -1 ? piece : piece.slice(0, eq);
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/**
 * Absolute http(s) URL resolved against `base`, normalised: scheme/host lower case (IDN hosts in punycode, IPv4 and
 * IPv6 in canonical form, a trailing dot dropped), default port dropped, fragment dropped, dot segments resolved,
 * percent-encoding normalised (upper-case hex, unreserved chars decoded), empty path → '/', a trailing
 * `index.html|index.htm|index.php|default.aspx` dropped, query params sorted (or dropped with ignoreQuery),
 * well-known tracking params (utm_*, gclid, fbclid, …) dropped; null for non-http(s), invalid, or credentials in the
 * URL.
 */
export function urlKey(raw: string, base: string | undefined, options: UrlKeyOptions): string | null {
  let url: URL;
  try {
    // WHATWG parsing does most of the work: case, IDN, IP forms, default ports, dot segments (`%2e` included),
    // and percent-encoding of what may not appear raw.
    url = new URL(raw, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '') return null;
  const hostname = url.hostname.endsWith('.') ? url.hostname.slice(0, -1) : url.hostname;
  if (hostname === '') return null;
  const host = url.port === '' ? hostname : `${hostname}:${url.port}`;
  const path = normalisePercentEncoding(url.pathname).replace(INDEX_DOCUMENT, '/') || '/';
  const query = options.ignoreQuery || url.search === '' ? '' : normaliseQuery(url.search);
  return `${url.protocol}//${host}${path}${query}`;
}
