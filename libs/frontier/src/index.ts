/**
 * libs/frontier — the pure building blocks of site crawls: URL keys for the seen-set, crawl scope and user
 * patterns, trap shapes, robots.txt rules, sitemaps, followable links and URL hashes. No I/O and no framework, so
 * the gateway-side coordinator and the workers share them; the crawl's state (frontier, seen-set, per-host
 * politeness) lives in Redis, elsewhere.
 */
export { normalisePercentEncoding, urlKey, type UrlKeyOptions } from './url-key.js';
export { compilePatterns, inScope, MAX_PATTERN_LENGTH, MAX_PATTERNS, type CrawlScope, type PathPattern, type ScopeVerdict } from './scope.js';
export { pathPattern, trapPattern } from './traps.js';
export { MAX_ROBOTS_BYTES, parseRobots, productToken, type RobotsRules } from './robots.js';
export { MAX_SITEMAP_BYTES, MAX_SITEMAP_URLS, parseSitemap, type SitemapParse } from './sitemap.js';
export { canonicalKey, documentBase, followableLinks, MAX_LINKS_PER_PAGE } from './links.js';
export { urlHash } from './seen-set.js';
