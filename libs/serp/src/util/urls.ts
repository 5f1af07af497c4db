/**
 * URL helpers for result links: unwrap engine redirect links (Google `/url?q=`, Bing `ck/a?u=`, DuckDuckGo `uddg=`),
 * resolve relative links against the engine host, and a normalised form used to compare links.
 */

const GOOGLE_REDIRECT_PATHS = ['/url', '/interstitial', '/imgres'];

/** Decodes a query string value without throwing on malformed escapes. */
function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

function queryParam(url: string, name: string): string | null {
  const q = url.indexOf('?');
  if (q < 0) return null;
  const query = url.slice(q + 1).split('#')[0];
  for (const part of query.split('&')) {
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    if (key === name) return eq < 0 ? '' : safeDecode(part.slice(eq + 1));
  }
  return null;
}

function isGoogleHost(host: string): boolean {
  return /(^|\.)google\.[a-z.]+$/.test(host);
}

/**
 * Turns a link found on a Google page into the target URL: `/url?q=…&sa=…` and `/url?url=…` redirects are
 * unwrapped, protocol-relative and absolute links are kept. Returns '' for links that stay on Google (search
 * pages, ad clicks, JavaScript links), which are not results.
 */
export function unwrapGoogleLink(href: string): string {
  const h = href.trim();
  if (!h || h.startsWith('#') || h.startsWith('javascript:')) return '';
  let path = h;
  const abs = /^(?:https?:)?\/\/([^/?#]+)(.*)$/i.exec(h);
  if (abs) {
    path = abs[2] || '/';
    if (!isGoogleHost(abs[1].toLowerCase())) return h.startsWith('//') ? `https:${h}` : h;
  } else if (!h.startsWith('/')) {
    return /^[a-z][a-z0-9+.-]*:/i.test(h) ? h : '';
  }
  const pathname = path.split(/[?#]/)[0];
  if (GOOGLE_REDIRECT_PATHS.includes(pathname)) {
    const target = queryParam(path, 'q') || queryParam(path, 'url') || queryParam(path, 'imgrefurl') || '';
    if (/^https?:\/\//i.test(target)) return target;
    return '';
  }
  // A Google-hosted page that is itself a result (e.g. https://www.google.com/maps) is kept when absolute.
  if (abs && pathname !== '/search' && !pathname.startsWith('/aclk') && !pathname.startsWith('/pagead')) {
    return h.startsWith('//') ? `https:${h}` : h;
  }
  return '';
}

/** Bing wraps result links in `https://www.bing.com/ck/a?…&u=a1<base64url>`; returns the target. */
export function unwrapBingLink(href: string): string {
  const h = href.trim();
  if (/^https?:\/\/(www\.)?bing\.com\/ck\/a\?/i.test(h)) {
    const u = queryParam(h, 'u');
    if (u && u.startsWith('a1')) {
      try {
        const decoded = Buffer.from(u.slice(2).replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
        if (/^https?:\/\//i.test(decoded)) return decoded;
      } catch {
        return h;
      }
    }
  }
  return h;
}

/** DuckDuckGo's HTML endpoint links through `//duckduckgo.com/l/?uddg=<target>`; returns the target. */
export function unwrapDuckDuckGoLink(href: string): string {
  const h = href.trim();
  if (/^(?:https?:)?\/\/(?:[a-z]+\.)?duckduckgo\.com\/l\/\?/i.test(h) || h.startsWith('/l/?')) {
    const target = queryParam(h, 'uddg');
    if (target) return target;
  }
  return h.startsWith('//') ? `https:${h}` : h;
}

export function hostOf(url: string): string {
  const m = /^(?:[a-z][a-z0-9+.-]*:)?\/\/([^/?#:]+)/i.exec(url);
  return m ? m[1].toLowerCase() : '';
}

/**
 * A comparison key for two links that point at the same page: scheme, `www.`, default ports, trailing slash,
 * fragment and percent-encoding differences removed.
 */
export function normalizeUrl(url: string): string {
  let u = url.trim();
  u = safeDecode(u.replace(/\+/g, '%2B'));
  u = u.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/^\/\//, '');
  u = u.replace(/#.*$/, '');
  const slash = u.search(/[/?]/);
  let host = slash < 0 ? u : u.slice(0, slash);
  let rest = slash < 0 ? '' : u.slice(slash);
  host = host.toLowerCase().replace(/^www\./, '').replace(/:(80|443)$/, '');
  rest = rest.replace(/\/+$/, '').replace(/\/\?/, '?');
  return host + rest;
}
