/**
 * What a correct crawler stores from the generated crawl fixture: a breadth-first walk of the model itself (not of
 * HTTP, and without libs/frontier, so the fixture's spec can check the two against each other). The semantics are
 * documented at the top of crawl-site.ts.
 */
import { calendarPage, robotsDisallows, type HostModel, type Link, type Resource } from './crawl-site-model.js';

export interface ExpectOptions {
  /** Link hops from the start (sitemap URLs are depth 0); undefined = unlimited. */
  maxDepth?: number;
  /** Pages stored at most (failures and duplicates do not count); the first `limit` of the breadth-first order. */
  limit?: number;
  /** Regex sources matched against a URL key's path (+ '?' + query); the start URL is exempt. */
  includePaths?: string[];
  excludePaths?: string[];
  sitemap?: 'include' | 'only' | 'skip';
  allowExternal?: boolean;
  /** No effect here: the fixture's hosts are IP addresses, which have no subdomains. */
  allowSubdomains?: boolean;
  ignoreQuery?: boolean;
  respectRobots?: boolean;
  /** URLs admitted per path shape and host (the trap defence); the calendar is the only shape with more than 9. */
  patternCap?: number;
}

export interface Outcomes {
  /** Stored pages' keys, in breadth-first order. */
  stored: string[];
  /** Keys fetched that are not pages: 404, 500, non-HTML, redirect loops, redirects to a refused URL. */
  failed: string[];
  /** Keys never requested because robots.txt disallows them (links, sitemap entries and redirect targets). */
  blocked: string[];
}

const MAX_REDIRECTS = 10;

interface Target {
  host: number;
  path: string;
  query?: string;
}

export function crawlOutcomes(model: HostModel[], origins: string[], opts: ExpectOptions = {}): Outcomes {
  const o = { sitemap: 'include', respectRobots: true, ignoreQuery: false, allowExternal: false, ...opts } as const;
  const maxDepth = o.maxDepth ?? Infinity;
  const limit = o.limit ?? Infinity;
  if (maxDepth === Infinity && o.patternCap === undefined && o.sitemap !== 'only' && model.some(hasCalendar)) {
    throw new Error('expected(): the calendar trap has no end; pass maxDepth or patternCap');
  }
  const include = (o.includePaths ?? []).filter(Boolean).map((p) => new RegExp(p));
  const exclude = (o.excludePaths ?? []).filter(Boolean).map((p) => new RegExp(p));
  const keyOf = (t: Target): string => `${origins[t.host]}${t.path}${t.query && !o.ignoreQuery ? `?${t.query}` : ''}`;
  const pathQuery = (t: Target): string => `${t.path}${t.query && !o.ignoreQuery ? `?${t.query}` : ''}`;
  const seen = new Set<string>();
  const calendarCount = new Map<number, number>();
  const out: Outcomes = { stored: [], failed: [], blocked: [] };
  // Breadth-first: one bucket per depth, each in order of admission (canonical targets join their own depth's).
  const buckets: Target[][] = [];
  const enqueue = (t: Target, depth: number): void => void (buckets[depth] ??= []).push(t);

  /** Scope, patterns and robots: what links, sitemap entries, redirect targets and canonicals must pass. */
  const admissible = (t: Target, exempt = false): 'ok' | 'out' | 'blocked' => {
    if (t.host !== 0 && !o.allowExternal) return 'out';
    const subject = pathQuery(t);
    if (!exempt && exclude.some((re) => re.test(subject))) return 'out';
    if (!exempt && include.length > 0 && !include.some((re) => re.test(subject))) return 'out';
    if (o.respectRobots && robotsDisallows(subject)) return 'blocked';
    return 'ok';
  };
  const admit = (t: Target, depth: number, exempt = false): void => {
    const key = keyOf(t);
    if (seen.has(key)) return;
    const verdict = admissible(t, exempt);
    if (verdict === 'blocked' && !out.blocked.includes(key)) out.blocked.push(key);
    if (verdict !== 'ok') return;
    if (t.path.startsWith('/calendar/') && o.patternCap !== undefined) {
      const n = calendarCount.get(t.host) ?? 0;
      if (n >= o.patternCap) return;
      calendarCount.set(t.host, n + 1);
    }
    seen.add(key);
    enqueue(t, depth);
  };

  admit({ host: 0, path: '/' }, 0, true);
  if (o.sitemap !== 'skip') for (const path of sitemapEntries(model[0])) admit({ host: 0, path }, 0);

  for (let depth = 0; depth < buckets.length; depth++) {
    for (let i = 0; i < (buckets[depth]?.length ?? 0) && out.stored.length < limit; i++) visit(buckets[depth][i], depth);
  }
  return out;

  function visit(t: Target, depth: number): void {
    const key = keyOf(t);
    // Redirects: every hop must be admissible; the page is stored under the final URL, at the link's depth.
    let at: Target = t;
    let res = resourceOf(model, at);
    let hops = 0;
    let refused = false;
    while (res.kind === 'redirect') {
      if (++hops > MAX_REDIRECTS) break;
      at = { host: res.to.host, path: res.to.path };
      const verdict = admissible(at);
      if (verdict !== 'ok') {
        if (verdict === 'blocked' && !out.blocked.includes(keyOf(at))) out.blocked.push(keyOf(at));
        refused = true;
        break;
      }
      res = resourceOf(model, at);
    }
    if (refused || res.kind !== 'page') {
      out.failed.push(key);
      return;
    }
    const finalKey = keyOf(at);
    if (finalKey !== key) {
      if (seen.has(finalKey)) return; // a duplicate of a page already taken
      seen.add(finalKey);
    }
    // A canonical naming another admissible URL makes this page a duplicate: the canonical is crawled instead,
    // at this depth, and this copy's links are not followed.
    const canonical: Target = { host: at.host, path: res.canonical ?? at.path };
    if (keyOf(canonical) !== finalKey && admissible(canonical) === 'ok') {
      const ckey = keyOf(canonical);
      if (!seen.has(ckey)) {
        seen.add(ckey);
        enqueue(canonical, depth);
      }
      return;
    }
    out.stored.push(finalKey);
    if (depth >= maxDepth || o.sitemap === 'only') return;
    for (const link of res.links) {
      if (link.rel?.split(/\s+/).includes('nofollow')) continue;
      admit(linkTarget(link), depth + 1);
    }
  }
}

export function linkTarget(link: Link): Target {
  return link.query && !link.query.tracking ? { host: link.host, path: link.path, query: `${link.query.name}=${link.query.value}` } : { host: link.host, path: link.path };
}

export function resourceOf(model: HostModel[], t: { host: number; path: string }): Resource {
  const found = model[t.host].resources.get(t.path);
  if (found) return found;
  const day = calendarDay(t.path);
  return day !== null && hasCalendar(model[t.host]) ? calendarPage(t.host, day) : { kind: 'missing' };
}

const hasCalendar = (host: HostModel): boolean => {
  const news = host.resources.get('/news/');
  return news?.kind === 'page' && news.links.some((l) => l.path.startsWith('/calendar/'));
};

/** The day number of a calendar path (0 = 2024-01-01), or null. */
export function calendarDay(path: string): number | null {
  const m = /^\/calendar\/(\d{4})\/(\d{2})\/(\d{2})$/.exec(path);
  if (!m) return null;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const day = Math.round((t - Date.UTC(2024, 0, 1)) / 86_400_000);
  return day >= 0 && new Date(t).getUTCDate() === Number(m[3]) ? day : null;
}

/**
 * The start host's sitemap entries in the order a sequential crawler meets them: robots.txt's Sitemap lines, then
 * /sitemap.xml, each read once, an index's children queued after them.
 */
export function sitemapEntries(host: HostModel): string[] {
  const entries: string[] = [];
  const queue = [...new Set([...host.robotsSitemaps, '/sitemap.xml'])];
  for (let i = 0; i < queue.length; i++) {
    if (queue[i] === '/sitemap.xml') queue.push(...host.sitemaps.index.filter((c) => !queue.includes(c)));
    else entries.push(...(host.sitemaps.urlsets.get(queue[i]) ?? []));
  }
  return entries;
}
