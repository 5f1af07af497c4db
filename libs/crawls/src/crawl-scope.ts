/** The scope of a site crawl from its stored options (patterns were checked when the crawl was accepted). */
import { compilePatterns, type CrawlScope } from '#frontier';
import type { SiteCrawlBody } from '#contracts';

export function crawlScope(start: string, options: Pick<SiteCrawlBody, 'include_paths' | 'exclude_paths' | 'allow_subdomains' | 'allow_external_links'>, maxUrlLength: number): CrawlScope {
  return {
    start,
    allowSubdomains: options.allow_subdomains,
    allowExternal: options.allow_external_links,
    include: compilePatterns(options.include_paths, 'include_paths'),
    exclude: compilePatterns(options.exclude_paths, 'exclude_paths'),
    maxUrlLength,
  };
}
