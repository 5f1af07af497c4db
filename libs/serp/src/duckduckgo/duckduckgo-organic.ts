/**
 * DuckDuckGo organic results in the three markups a saved page can have: the HTML endpoint and the older
 * JavaScript page (`.result` / `a.result__a`), the lite endpoint (`a.result-link` rows in a table), and the React
 * page (`article[data-testid=result]`). Ads are skipped (`.result--ad`, sponsored rows, `y.js` click links).
 */
import { attr, closest, findFirst, hasAnyClass, hasClass, textOf, type Element, type SerpDom } from '../dom/serp-dom.js';
import type { OrganicResult } from '../types.js';
import { looksLikeDate, splitLeadingDate } from '../util/dates.js';
import { hostOf, unwrapDuckDuckGoLink } from '../util/urls.js';
import { fallbackOrganicEntries, type StructuralProfile } from '../google/google-fallback.js';

const AD_CLASSES = ['result--ad', 'result--sponsored', 'sponsored', 'result-sponsored'];

export type DuckDuckGoResults = OrganicResult[] & { first?: Element | null };

const isAdLink = (href: string) => /duckduckgo\.com\/y\.js\?|[?&]ad_provider=/.test(href);

/** The HTML endpoint prints an ISO timestamp next to the URL ("2026-02-13T00:00:00.0000000"); midnight means a day. */
function isoDate(text: string): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}(?::\d{2})?))?/.exec(text.trim());
  if (!m) return undefined;
  return !m[2] || /^00:00(:00)?$/.test(m[2]) ? m[1] : `${m[1]}T${m[2]}`;
}

function push(out: DuckDuckGoResults, seen: Set<string>, scope: Element | null, r: Omit<OrganicResult, 'position'>): void {
  if (!/^https?:/.test(r.link) || seen.has(r.link)) return;
  seen.add(r.link);
  if (!out.length) out.first = scope;
  out.push({ ...r, position: out.length + 1 });
}

function withDate(title: string, link: string, snippet: string, date?: string): Omit<OrganicResult, 'position'> {
  const split = date ? { rest: snippet, date } : splitLeadingDate(snippet);
  const r: Omit<OrganicResult, 'position'> = { title, link, snippet: split.rest };
  if (split.date) r.date = split.date;
  return r;
}

function classic(dom: SerpDom, out: DuckDuckGoResults, seen: Set<string>): void {
  for (const a of dom.byClass('result__a')) {
    if (a.name !== 'a') continue;
    const scope = closest(a, (e) => hasClass(e, 'result'));
    if (scope && hasAnyClass(scope, AD_CLASSES) || isAdLink(attr(a, 'href'))) continue;
    const snippetEl = scope && findFirst(scope, (e) => hasClass(e, 'result__snippet'));
    const dateEl = snippetEl && findFirst(snippetEl, (e) => hasClass(e, 'result__date'));
    const dateText = textOf(dateEl);
    const extras = scope && findFirst(scope, (e) => hasClass(e, 'result__extras__url'));
    const stamp = extras ? isoDate(textOf(extras, (e) => e.name === 'a')) : undefined;
    const date = dateText && looksLikeDate(dateText) ? dateText : stamp;
    push(out, seen, scope, withDate(textOf(a, (e) => hasClass(e, 'result__check__tt')), unwrapDuckDuckGoLink(attr(a, 'href')), textOf(snippetEl, (e) => e === dateEl), date));
  }
}

function lite(dom: SerpDom, out: DuckDuckGoResults, seen: Set<string>): void {
  // Rows: link, snippet, URL; the snippet row belongs to the link above it.
  const cells = [...dom.byClass('result-link'), ...dom.byClass('result-snippet')].sort((a, b) => dom.order(a) - dom.order(b));
  for (let i = 0; i < cells.length; i++) {
    const a = cells[i];
    if (a.name !== 'a' || !hasClass(a, 'result-link')) continue;
    const row = closest(a, (e) => e.name === 'tr');
    if (row && hasAnyClass(row, AD_CLASSES) || isAdLink(attr(a, 'href'))) continue;
    const next = cells[i + 1];
    const snippet = next && hasClass(next, 'result-snippet') ? textOf(next) : '';
    push(out, seen, row, withDate(textOf(a), unwrapDuckDuckGoLink(attr(a, 'href')), snippet));
  }
}

function react(dom: SerpDom, out: DuckDuckGoResults, seen: Set<string>): void {
  for (const article of dom.withAttr('data-testid')) {
    if (attr(article, 'data-testid') !== 'result') continue;
    if (closest(article, (e) => /ad/.test(attr(e, 'data-layout')) || attr(e, 'data-testid') === 'ad')) continue;
    const a = findFirst(article, (e) => e.name === 'a' && attr(e, 'data-testid') === 'result-title-a');
    if (!a || isAdLink(attr(a, 'href'))) continue;
    const snippetEl = findFirst(article, (e) => attr(e, 'data-result') === 'snippet');
    push(out, seen, article, withDate(textOf(a), unwrapDuckDuckGoLink(attr(a, 'href')), textOf(snippetEl)));
  }
}

/** Organic results in page order; `first` is the first result's element (its id carries the index on JS pages). */
export function parseDuckDuckGoOrganic(dom: SerpDom): DuckDuckGoResults {
  const out: DuckDuckGoResults = [];
  const seen = new Set<string>();
  classic(dom, out, seen);
  if (!out.length) lite(dom, out, seen);
  if (!out.length) react(dom, out, seen);
  if (!out.length) {
    for (const e of fallbackOrganicEntries(dom, 0, DUCKDUCKGO_STRUCTURE)) push(out, seen, null, e.result);
  }
  return out;
}

/**
 * DuckDuckGo pages read by structure when none of the three known markups is found: a result is an outside link in
 * a heading, or a plain title link (the lite page's rows), whose block shows the URL; `l/?uddg=` links unwrapped,
 * DuckDuckGo's own pages and `y.js` ad clicks left out.
 */
export const DUCKDUCKGO_STRUCTURE: StructuralProfile = {
  linkOf: (a) => {
    const l = unwrapDuckDuckGoLink(attr(a, 'href'));
    return /^https?:\/\//i.test(l) ? l : '';
  },
  ownOrAd: (href, link) => isAdLink(href) || /(^|\.)duckduckgo\.com$/.test(hostOf(link)),
  headings: new Set(['h2', 'h3']),
  root: (dom) => dom.byTag('body')[0] ?? null,
};
