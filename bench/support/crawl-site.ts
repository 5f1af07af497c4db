/**
 * A generated website on several loopback hosts, for site-crawl tests and benchmarks: `startCrawlSite()` serves
 * hosts[0] = http://127.0.0.2:P, hosts[1] = http://127.0.0.3:P, … (one port P on every address), generated from a
 * seed with a known link graph (crawl-site-model.ts), logs every request, and says what a correct crawler stores.
 *
 * Per host: a home page, four sections (/docs/ /blog/ /news/ /shop/) with trees of pages below them (3 children a
 * page, slugs of words), cross links one level down, links to the other hosts' home pages, and:
 *  - robots.txt: `User-agent: *` Disallow /private/ with an Allow for /private/public-note, Disallow /*?sessionid=,
 *    Crawl-delay on hosts[1] (crawlDelaySeconds), two Sitemap lines; a `BadBot` group disallowing everything;
 *  - /sitemap.xml, an index of /sitemap-pages.xml and the gzipped /sitemap-archive.xml.gz; /sitemap-news.txt (plain
 *    text, listed in robots.txt only). They list the home page, orphan pages /archive/<slug> (linked from nowhere,
 *    each linking home and a /notes page below it), /private/orphan (robots-disallowed) and a 404;
 *  - redirects: /old/<slug> → a blog page (301, also linked directly), /r/moved → /moved/<slug> (a page only reached
 *    so), /chain/1 → /chain/2 → /chain/3 → /landing (302, 307, 301), /old-private → /private/archive (into the
 *    disallowed subtree), /elsewhere → hosts[1]'s home (hosts[0] only), /loop/a ↔ /loop/b, /gone → a 404;
 *  - every page names its clean URL as rel=canonical; links come as written by sites: plain, relative, absolute,
 *    protocol-relative, `/docs/index.html`, #fragments, ?utm_source= (tracking), ?ref= (a canonical duplicate),
 *    ?sessionid= (disallowed); /shop/print/<slug> copies with a canonical to the original; /all-links has hundreds
 *    of anchors (every spelling of the top pages) under a `<base href="/docs/">`;
 *  - /news/ links the calendar trap /calendar/2024/01/01, each day linking the next, forever (`trap`);
 *  - failures: a 404 link, /broken (500), /files/report.pdf, photo.png, archive.zip; /docs/huge (hugePageBytes of
 *    HTML, a page: under Trawl's 10 MiB CRAWL_MAX_BYTES); /docs/nofollow-only, linked only with rel=nofollow.
 *
 * What `expected(opts)` returns — the exact set of URL keys (libs/frontier urlKey form) a correct crawler started at
 * hosts[0]/ stores, in breadth-first order. The crawler's rules it encodes (the lead's crawler is made to match):
 *  - Keys: a crawler normalises every URL (urlKey; with ignoreQuery, no query) and requests the key, never the raw
 *    href; a key is fetched at most once per crawl.
 *  - Depth = link hops from the start URL; the start URL and sitemap URLs are depth 0. A page is stored when its
 *    depth ≤ maxDepth; links of a page at maxDepth are not followed. A redirect is not a hop, nor is a canonical.
 *    The site is built so that depths do not depend on the order of fetches (crawl-site-model.ts, buildSite).
 *  - Sitemaps (Firecrawl's `sitemap`): 'include' (default) adds the start host's sitemap URLs (robots.txt Sitemap
 *    lines and /sitemap.xml, indexes followed) at depth 0 and follows links; 'only' crawls the start URL and the
 *    sitemap URLs and follows no link; 'skip' reads no sitemap. Other hosts' sitemaps are never read.
 *  - Scope: a link, sitemap entry, redirect hop or canonical must be in scope: the start host (other hosts only with
 *    allowExternal; allowSubdomains changes nothing here, IP addresses having no subdomains), includePaths /
 *    excludePaths (regexes on the key's path + '?' + query; the start URL is exempt), and, with respectRobots
 *    (default true), the robots.txt of its host (`*` group). A disallowed URL is never requested: a redirect into a
 *    disallowed path is a failure, and its target is not requested either.
 *  - Links: <a>/<area> hrefs resolved against <base href>, rel=nofollow not followed; every key admitted once.
 *  - Redirects: followed (at most 10 hops); the page is stored under the final URL's key, at the depth of the link;
 *    a final key already seen is a duplicate (dropped, not a failure); a loop is a failure.
 *  - Canonicals: a page whose rel=canonical key differs from its own, and is in scope, is a duplicate: not stored,
 *    its links not followed; the canonical is crawled instead at the same depth (once). So `/a?ref=x`,
 *    `/a/index.html`, `/a#f` and `/a?utm_source=y` all end in one stored `/a`.
 *  - Failures, not pages: 404, 500, non-HTML (PDF, image, zip), redirect loops, redirects out of scope.
 *  - limit (default none): pages stored (failures and duplicates do not count). expected() gives the first `limit`
 *    of the breadth-first order (depth, then discovery); a concurrent crawler is right when it stores exactly
 *    min(limit, |expected(no limit)|) pages, all of them in expected(no limit).
 *  - patternCap: URLs admitted per libs/frontier pathPattern shape and host (the trap defence); only the calendar
 *    has more than 9 URLs of one shape. With the trap on, expected() needs maxDepth or patternCap.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { crawlOutcomes, resourceOf, type ExpectOptions, type Outcomes } from './crawl-site-expected.js';
import { buildSite, robotsTxt, type HostModel, type Link, type PageResource, type SiteShape } from './crawl-site-model.js';

export type { ExpectOptions, Outcomes } from './crawl-site-expected.js';

export interface CrawlSiteOptions {
  seed?: number;
  /** Hosts (127.0.0.2 …); default 3. */
  hosts?: number;
  /** Section-tree pages per host; default 50. */
  pagesPerHost?: number;
  /** Port on every address; default 0: one found free on all of them. */
  port?: number;
  /** Crawl-delay in hosts[1]'s robots.txt, seconds; default 0.2; null: none. */
  crawlDelaySeconds?: number | null;
  /** The endless calendar; default true. */
  trap?: boolean;
  /** Size of /docs/huge; default 5 MB; 0: no huge page. */
  hugePageBytes?: number;
  /** How long every answer but robots.txt and the sitemaps takes, ms (requests overlap, as a slow site's do); default 0. */
  latencyMs?: number;
}

export interface RequestLogEntry {
  /** `127.0.0.2:P` */
  host: string;
  /** Path and query as requested. */
  path: string;
  /** performance.now() when the request arrived, ms. */
  at: number;
  /** performance.now() when its answer was sent (or the connection closed); unset while it is in flight. */
  end?: number;
  ua: string;
}

export interface CrawlSite {
  /** Base URLs, `http://127.0.0.2:P` …, no trailing slash; hosts[0] is the start host. */
  hosts: string[];
  /** The keys a correct crawler started at `${hosts[0]}/` stores (see the header). */
  expected(opts?: ExpectOptions): string[];
  /** Stored, failed and robots-blocked keys under the same rules. */
  outcomes(opts?: ExpectOptions): Outcomes;
  log: RequestLogEntry[];
  close(): Promise<void>;
}

export async function startCrawlSite(options: CrawlSiteOptions = {}): Promise<CrawlSite> {
  const shape: SiteShape = {
    seed: options.seed ?? 1,
    hosts: options.hosts ?? 3,
    pagesPerHost: options.pagesPerHost ?? 50,
    crawlDelaySeconds: options.crawlDelaySeconds === undefined ? 0.2 : options.crawlDelaySeconds,
    trap: options.trap ?? true,
    hugePageBytes: options.hugePageBytes ?? 5_000_000,
  };
  const latencyMs = options.latencyMs ?? 0;
  if (shape.hosts < 1 || shape.hosts > 200) throw new Error('hosts: 1 to 200');
  const model = buildSite(shape);
  const log: RequestLogEntry[] = [];
  const addresses = Array.from({ length: shape.hosts }, (_, h) => `127.0.0.${h + 2}`);
  let origins: string[] = [];
  const gz = new Map<number, Buffer>();
  const huge = new Map<number, string>();

  const handle = (h: number, req: IncomingMessage, res: ServerResponse): void => {
    const raw = req.url ?? '/';
    const entry: RequestLogEntry = { host: `${addresses[h]}:${new URL(origins[h]).port}`, path: raw, at: performance.now(), ua: req.headers['user-agent'] ?? '' };
    log.push(entry);
    res.once('close', () => (entry.end ??= performance.now()));
    const path = raw.split(/[?#]/)[0];
    const send = (status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'content-type': type, 'content-length': String(Buffer.byteLength(body)), ...headers });
      res.end(req.method === 'HEAD' ? undefined : body, () => (entry.end ??= performance.now()));
    };
    const host = model[h];
    if (path === '/robots.txt') return send(200, 'text/plain; charset=utf-8', robotsTxt(shape, h, origins[h], host.robotsSitemaps));
    if (path === '/sitemap.xml') return send(200, 'application/xml', sitemapIndex(origins[h], host.sitemaps.index));
    const urlset = host.sitemaps.urlsets.get(path);
    if (urlset && path.endsWith('.txt')) return send(200, 'text/plain; charset=utf-8', urlset.map((p) => `${origins[h]}${p}`).join('\n') + '\n');
    if (urlset && path.endsWith('.gz')) {
      if (!gz.has(h)) gz.set(h, gzipSync(urlsetXml(origins[h], urlset)));
      return send(200, 'application/gzip', gz.get(h)!);
    }
    if (urlset) return send(200, 'application/xml', urlsetXml(origins[h], urlset));
    if (latencyMs > 0) {
      const timer = setTimeout(() => answer(h, path, send), latencyMs);
      res.once('close', () => clearTimeout(timer));
      return;
    }
    answer(h, path, send);
  };

  /** A page, redirect, file or error of the model. */
  const answer = (h: number, path: string, send: (status: number, type: string, body: string | Buffer, headers?: Record<string, string>) => void): void => {
    const resource = resourceOf(model, { host: h, path: path.replace(/\/index\.html$/, '/') });
    switch (resource.kind) {
      case 'page':
        return send(200, 'text/html; charset=utf-8', renderPage(h, path, resource));
      case 'redirect': {
        const { to } = resource;
        return send(resource.status, 'text/html', '', { location: to.host === h ? to.path : `${origins[to.host]}${to.path}` });
      }
      case 'file':
        return send(200, resource.type, fileBody(resource.type, resource.bytes));
      case 'error':
        return send(500, 'text/html', '<!doctype html><title>Error</title><h1>Internal error</h1>');
      case 'missing':
        return send(404, 'text/html', '<!doctype html><title>Not found</title><h1>Not found</h1>');
    }
  };

  const renderPage = (h: number, path: string, page: PageResource): string => {
    const base = path === '/all-links' ? '/docs/' : undefined;
    const links = page.links.map((link, i) => `<li><a href="${escape(hrefOf(h, path, base, link, i))}"${link.rel ? ` rel="${link.rel}"` : ''}>${escape(link.text)}</a></li>`);
    let filler = '';
    if (page.filler) {
      if (!huge.has(h)) huge.set(h, fillerHtml(page.paragraphs, page.filler));
      filler = huge.get(h)!;
    }
    return [
      '<!doctype html><html lang="en"><head><meta charset="utf-8">',
      `<title>${escape(page.title)}</title>`,
      page.canonical ? `<link rel="canonical" href="${origins[h]}${page.canonical}">` : '',
      base ? `<base href="${base}">` : '',
      '</head><body><header><nav><ul>',
      ...links.slice(0, 5),
      '</ul></nav></header><main>',
      `<h1>${escape(page.title)}</h1>`,
      ...page.paragraphs.map((p) => `<p>${escape(p)}</p>`),
      filler,
      '<ul>',
      ...links.slice(5),
      '</ul></main><footer><p>Generated crawl fixture.</p></footer></body></html>',
    ].join('\n');
  };

  /** How a site might write the link: the spelling varies, the target does not. */
  const hrefOf = (h: number, from: string, base: string | undefined, link: Link, i: number): string => {
    const target = `${link.path}${link.index ? 'index.html' : ''}${link.query ? `?${link.query.name}=${link.query.value}` : ''}${link.fragment ? `#${link.fragment}` : ''}`;
    if (link.host !== h) return i % 2 === 0 ? `${origins[link.host]}${target}` : `//${new URL(origins[link.host]).host}${target}`;
    if (base && target.startsWith(base)) return target.slice(base.length) || './';
    const dir = from.slice(0, from.lastIndexOf('/') + 1);
    if (!base && i % 3 === 1 && target.startsWith(dir) && target.length > dir.length) return target.slice(dir.length);
    if (i % 5 === 4) return `${origins[h]}${target}`;
    return target;
  };

  const servers: Server[] = [];
  const listen = (address: string, port: number, h: number): Promise<Server> =>
    new Promise((resolve, reject) => {
      const server = createServer((req, res) => handle(h, req, res));
      server.keepAliveTimeout = 30_000;
      server.once('error', reject);
      server.listen(port, address, () => resolve(server));
    });
  for (let attempt = 0; ; attempt++) {
    try {
      const first = await listen(addresses[0], options.port ?? 0, 0);
      servers.push(first);
      const port = (first.address() as AddressInfo).port;
      for (let h = 1; h < shape.hosts; h++) servers.push(await listen(addresses[h], port, h));
      origins = addresses.map((a) => `http://${a}:${port}`);
      break;
    } catch (error) {
      await Promise.all(servers.splice(0).map(closeServer));
      if (options.port !== undefined || attempt >= 20 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
  return {
    hosts: origins,
    expected: (opts) => crawlOutcomes(model, origins, opts).stored,
    outcomes: (opts) => crawlOutcomes(model, origins, opts),
    log,
    close: async () => void (await Promise.all(servers.map(closeServer))),
  };
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function sitemapIndex(origin: string, children: string[]): string {
  const entries = children.map((c) => `  <sitemap><loc>${origin}${c}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</sitemapindex>\n`;
}

function urlsetXml(origin: string, paths: string[]): string {
  const entries = paths.map((p) => `  <url><loc>${escape(origin + p)}</loc><lastmod>2024-06-01</lastmod></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</urlset>\n`;
}

function fillerHtml(paragraphs: string[], bytes: number): string {
  const block = `<section><h2>Chapter</h2>${paragraphs.map((p) => `<p>${escape(p)}</p>`).join('')}</section>\n`;
  return block.repeat(Math.max(1, Math.ceil(bytes / block.length)));
}

function fileBody(type: string, bytes: number): Buffer {
  const magic = type === 'application/pdf' ? '%PDF-1.4\n' : type === 'image/png' ? '\x89PNG\r\n\x1a\n' : 'PK\x03\x04';
  const body = Buffer.alloc(bytes, 0x20);
  body.write(magic, 'latin1');
  return body;
}

export type { HostModel };
