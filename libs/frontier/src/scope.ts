/**
 * Which discovered URLs belong to a crawl: the start host (and, when asked, its registrable domain's subdomains or
 * any host), the user's include/exclude patterns, and a length cap. Patterns are compiled once, when the crawl is
 * accepted, and refused there if they could hang a worker.
 */
import safeRegex from 'safe-regex2';
import { getDomain } from 'tldts';
import { ErrorCode, TrawlError } from '#contracts';

export interface CrawlScope {
  /** The crawl's start URL (its host is always in scope). */
  start: string;
  allowSubdomains: boolean;
  allowExternal: boolean;
  include: RegExp[];
  exclude: RegExp[];
  maxUrlLength: number;
}

export type ScopeVerdict = { ok: true } | { ok: false; reason: 'external' | 'excluded' | 'not-included' | 'too-long' };

export const MAX_PATTERNS = 100;
export const MAX_PATTERN_LENGTH = 500;

const OK: ScopeVerdict = { ok: true };

/** Private suffixes count (github.io, herokuapp.com): two users' sites under one are different sites. */
const TLD_OPTIONS = { allowPrivateDomains: true };

/** `www.` is the same site as the bare host (as Firecrawl treats it): a site that redirects one to the other still crawls. */
const withoutWww = (host: string): string => (host.startsWith('www.') ? host.slice(4) : host);

/**
 * include/exclude match the URL's path (+ '?' + query when present), as Firecrawl's includePaths do; an include
 * list, when non-empty, must match; exclude wins over include. The start host is always in scope (ports aside:
 * scope is by host name), `www.` or not; subdomains of the start host's registrable domain only with
 * allowSubdomains (an IP address or a bare name like `localhost` has none); other hosts only with allowExternal.
 */
export function inScope(url: string, scope: CrawlScope): ScopeVerdict {
  if (url.length > scope.maxUrlLength) return { ok: false, reason: 'too-long' };
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { ok: false, reason: 'external' };
  }
  if (!scope.allowExternal && !sameSite(target.hostname, startOf(scope), scope.allowSubdomains)) {
    return { ok: false, reason: 'external' };
  }
  const subject = target.pathname + target.search;
  if (scope.exclude.some((re) => re.test(subject))) return { ok: false, reason: 'excluded' };
  if (scope.include.length > 0 && !scope.include.some((re) => re.test(subject))) return { ok: false, reason: 'not-included' };
  return OK;
}

interface Start {
  site: string;
  domain: string | null;
}

/** The start host per scope object, parsed once: a crawl checks every link it finds against the same scope. */
const starts = new WeakMap<CrawlScope, Start>();
function startOf(scope: CrawlScope): Start {
  let start = starts.get(scope);
  if (start === undefined) {
    const host = new URL(scope.start).hostname;
    start = { site: withoutWww(host), domain: getDomain(host, TLD_OPTIONS) };
    starts.set(scope, start);
  }
  return start;
}

function sameSite(host: string, start: Start, allowSubdomains: boolean): boolean {
  if (withoutWww(host) === start.site) return true;
  return allowSubdomains && start.domain !== null && getDomain(host, TLD_OPTIONS) === start.domain;
}

/**
 * Compiles user patterns (JavaScript regular expressions, no flags, as Firecrawl compiles them; empty strings are
 * dropped, since Firecrawl ignores an empty pattern rather than matching everything); throws
 * TrawlError(INVALID_PARAMETER) naming `param` for an invalid regex, one over 500 chars, more than 100 patterns, or
 * one that is unsafe (catastrophic backtracking: nested quantifiers, by safe-regex2's star-height check).
 */
export function compilePatterns(patterns: string[], param: string): RegExp[] {
  if (patterns.length > MAX_PATTERNS) {
    throw new TrawlError(ErrorCode.INVALID_PARAMETER, `${param}: at most ${MAX_PATTERNS} patterns (got ${patterns.length})`);
  }
  return patterns.flatMap((pattern, i) => {
    if (typeof pattern !== 'string') throw new TrawlError(ErrorCode.INVALID_PARAMETER, `${param}[${i}]: must be a string`);
    if (pattern === '') return [];
    if (pattern.length > MAX_PATTERN_LENGTH) {
      throw new TrawlError(ErrorCode.INVALID_PARAMETER, `${param}[${i}]: at most ${MAX_PATTERN_LENGTH} characters (got ${pattern.length})`);
    }
    let re: RegExp;
    try {
      re = new RegExp(pattern);
    } catch (error) {
      throw new TrawlError(ErrorCode.INVALID_PARAMETER, `${param}[${i}]: not a valid regular expression (${(error as Error).message})`);
    }
    if (!safeRegex(pattern)) {
      throw new TrawlError(ErrorCode.INVALID_PARAMETER, `${param}[${i}]: a pattern with nested repetition can take exponential time; simplify it`);
    }
    return [re];
  });
}
