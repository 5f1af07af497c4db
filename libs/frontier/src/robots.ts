/**
 * robots.txt per RFC 9309, parsed by `robots-parser` (what Crawlee and Firecrawl use: Google's matching algorithm,
 * longest match wins, Allow on a tie, `*` and `$`), with what the library leaves to its caller: what a fetch status
 * means, the size bound, percent-encoding of patterns, and a user agent reduced to its product token.
 */
import robotsParserModule from 'robots-parser';
import { normalisePercentEncoding } from './url-key.js';

/** The parts of robots-parser's Robot used here (its typings declare a default export that Node sees as the module). */
interface ParsedRobots {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
  getSitemaps(): string[];
}
type RobotsParser = (url: string, contents: string) => ParsedRobots;
const robotsParser: RobotsParser =
  (robotsParserModule as unknown as { default?: RobotsParser }).default ?? (robotsParserModule as unknown as RobotsParser);

export interface RobotsRules {
  /** Whether `url` may be fetched. False for a URL of another origin than the robots.txt's (a caller's mix-up). */
  allowed(url: string): boolean;
  /** The Crawl-delay of the matching group, in ms (as written: callers cap it), or null when there is none. */
  crawlDelayMs(): number | null;
  /** The file's absolute http(s) `Sitemap:` URLs, once each, in file order. */
  sitemaps(): string[];
}

/** RFC 9309 §2.5: a crawler must parse at least 500 KiB; what lies past that is ignored. */
export const MAX_ROBOTS_BYTES = 500 * 1024;

const ALLOW_ALL: RobotsRules = { allowed: () => true, crawlDelayMs: () => null, sitemaps: () => [] };

/**
 * The product token robots.txt groups are matched against: `TrawlBot` from `TrawlBot/1.2 (+https://…)`. Group
 * names are compared case-insensitively and exactly (RFC 9309 §2.2.1), the `*` group when none matches.
 */
export function productToken(userAgent: string): string {
  return /^[A-Za-z_-]+/.exec(userAgent.trim())?.[0] ?? '*';
}

/**
 * `status` is the HTTP status of robots.txt (after its redirects): 2xx parse the body; 3xx (redirects not followed
 * to an end) and 4xx (incl. 404) = allow all, as "unavailable"; 429 is treated as a server error, as Google does,
 * since it asks the crawler to back off; 5xx or unreachable (status null) = disallow all (RFC 9309 §2.3.1.3/4).
 * The body is bounded (500 KiB, RFC 9309 §2.5), cut at the last whole line within the bound. /robots.txt itself is
 * always allowed.
 */
export function parseRobots(robotsUrl: string, status: number | null, body: string, userAgent: string): RobotsRules {
  if (status !== null && status >= 300 && status < 500 && status !== 429) return ALLOW_ALL;
  let origin: string;
  try {
    origin = new URL(robotsUrl).origin;
  } catch {
    return disallowAll('');
  }
  if (status === null || status < 200 || status >= 300) return disallowAll(origin);

  const token = productToken(userAgent);
  // RFC 9309 §2.2.2: percent-encoded unreserved octets are compared decoded; the URLs asked about are normalised
  // the same way (a key from urlKey already is).
  const robots = robotsParser(robotsUrl, normalisePercentEncoding(bounded(body)));
  const sitemaps = [
    ...new Set(
      robots.getSitemaps().flatMap((raw) => {
        try {
          const url = new URL(raw, robotsUrl);
          return url.protocol === 'http:' || url.protocol === 'https:' ? [url.href] : [];
        } catch {
          return [];
        }
      }),
    ),
  ];
  const delay = robots.getCrawlDelay(token);
  const delayMs = typeof delay === 'number' && Number.isFinite(delay) && delay >= 0 ? Math.round(delay * 1000) : null;
  return {
    allowed: (url) => {
      const target = sameOrigin(url, origin);
      if (target === null) return false;
      if (target.pathname === '/robots.txt') return true;
      return robots.isAllowed(normalisePercentEncoding(target.href), token) ?? false;
    },
    crawlDelayMs: () => delayMs,
    sitemaps: () => [...sitemaps],
  };
}

function disallowAll(origin: string): RobotsRules {
  return {
    allowed: (url) => sameOrigin(url, origin)?.pathname === '/robots.txt',
    crawlDelayMs: () => null,
    sitemaps: () => [],
  };
}

function sameOrigin(url: string, origin: string): URL | null {
  try {
    const target = new URL(url);
    return target.origin === origin ? target : null;
  } catch {
    return null;
  }
}

/** The body within MAX_ROBOTS_BYTES of UTF-8, without a partial last line (a cut `Disallow: /a/b` would read `/a`), BOM dropped. */
function bounded(body: string): string {
  const text = body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
  // A UTF-16 code unit is at most 3 UTF-8 bytes: short bodies need no encoding to know they fit.
  if (text.length * 3 <= MAX_ROBOTS_BYTES || Buffer.byteLength(text) <= MAX_ROBOTS_BYTES) return text;
  const cut = Buffer.from(text).subarray(0, MAX_ROBOTS_BYTES).toString('utf8');
  return cut.slice(0, Math.max(0, cut.search(/[\r\n][^\r\n]*$/)));
}
