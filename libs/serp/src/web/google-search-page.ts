/**
 * `/search` pages from Google: the google/ parser's `/serp-search` result mapped onto the page object, plus the
 * pager's "next" link. Google prints no result range on its pages, so the offset stays unknown (null).
 */
import { parseGoogleSerp } from '../google/google-engine.js';
import type { ParsedSearchPage, UpstreamResponseMeta, WebQuery } from '../types.js';
import { searchPageFromSerp } from './search-page.js';

export function parseGoogleSearchPage(body: string, q: Pick<WebQuery, 'page'>, meta?: UpstreamResponseMeta): ParsedSearchPage {
  const { verdict, result } = parseGoogleSerp(body, { type: 'search', page: q.page, num: 10 });
  const pagination = { offset: null, hasNext: /id=["']?pnnext\b|aria-label=["']Next page["']/.test(body) };
  if (meta?.status === 429 || meta?.finalUrl && /\/sorry\//.test(meta.finalUrl)) return { verdict: { kind: 'blocked', reason: 'unusual_traffic' }, pagination };
  return result ? { verdict, page: searchPageFromSerp(result), pagination } : { verdict, pagination };
}
