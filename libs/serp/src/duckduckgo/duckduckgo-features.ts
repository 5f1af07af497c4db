/**
 * DuckDuckGo's blocks besides the organic results: the instant answer (HTML endpoint `#zero_click_abstract`,
 * JavaScript page `.zci`), the "About" sidebar module, related searches, and the pagination state (the HTML
 * endpoint's next/previous forms, the JavaScript page's `r1-N` result ids and "More results" button).
 */
import { attr, findAll, findFirst, hasAnyClass, hasClass, textOf, type Element, type SerpDom } from '../dom/serp-dom.js';
import type { DirectAnswer, SearchPagination, Sidebar } from '../types.js';
import { sourceOf, uniqueTexts } from '../web/search-page.js';
import { hostOf, unwrapDuckDuckGoLink } from '../util/urls.js';

const external = (href: string): string => {
  const link = unwrapDuckDuckGoLink(href);
  return /^https?:\/\//i.test(link) && !/(^|\.)duckduckgo\.com$/.test(hostOf(link)) ? link : '';
};

/** "More at Wikipedia" → "Wikipedia". */
const moreAt = (text: string): string => /^\s*More at\s+(.+?)\s*$/i.exec(text)?.[1] ?? '';

function answerFrom(box: Element, textEl: Element | null, titleEl: Element | null): DirectAnswer | null {
  const moreLink = findAll(box, (e) => e.name === 'a').find((a) => moreAt(textOf(a)));
  const answer = textOf(textEl, (e) => e === moreLink || hasAnyClass(e, ['chomp--link', 'zci__more-at', 'zci__more-at--info']));
  if (!answer) return null;
  const out: DirectAnswer = { answer };
  const title = textOf(titleEl, (e) => hasAnyClass(e, ['zci__header__sub']));
  if (title && title !== answer) out.snippet = title;
  const link = moreLink ? external(attr(moreLink, 'href')) : findAll(box, (e) => e.name === 'a').map((a) => external(attr(a, 'href'))).find(Boolean);
  if (link) {
    out.link = link;
    out.source = sourceOf(link, moreLink ? moreAt(textOf(moreLink)) : undefined);
  }
  return out;
}

/** The instant answer above the results (abstract, lyrics, definition, calculator …); null when there is none. */
export function parseDuckDuckGoAnswer(dom: SerpDom): DirectAnswer | null {
  const abstract = dom.byId('zero_click_abstract');
  if (abstract) {
    const box = dom.byClass('zci')[0] ?? abstract;
    return answerFrom(box, abstract, findFirst(box, (e) => hasAnyClass(e, ['zci__heading', 'zci__header'])));
  }
  const body = dom.byClass('zci__body')[0];
  if (!body) return null;
  return answerFrom(body, findFirst(body, (e) => hasAnyClass(e, ['zci__content', 'zci__result'])), findFirst(body, (e) => hasAnyClass(e, ['zci__header', 'zci__heading'])));
}

/** The right-rail "About" module of the JavaScript page (DuckDuckGo's knowledge panel). */
export function parseDuckDuckGoSidebar(dom: SerpDom): Sidebar | null {
  const module = dom.byClass('module--about')[0];
  if (!module) return null;
  const title = textOf(findFirst(module, (e) => hasClass(e, 'module__title')));
  if (!title) return null;
  const more = findAll(module, (e) => e.name === 'a' && hasAnyClass(e, ['module__more-at', 'module__more-at-bottom']));
  const textEl = findFirst(module, (e) => hasClass(e, 'module__text'));
  const sidebar: Sidebar = {
    title,
    type: textOf(findFirst(module, (e) => hasClass(e, 'module__title__sub'))),
    description: textOf(textEl, (e) => more.includes(e)),
    attributes: {},
  };
  for (const row of findAll(module, (e) => hasAnyClass(e, ['about-info-box__info-row', 'module__fact']))) {
    const label = textOf(findFirst(row, (e) => hasAnyClass(e, ['about-info-box__info-label', 'module__fact__label'])));
    const value = textOf(findFirst(row, (e) => hasAnyClass(e, ['about-info-box__info-value', 'module__fact__value'])));
    if (label && value) sidebar.attributes[label.replace(/:$/, '')] = value;
  }
  const link = more.map((a) => external(attr(a, 'href'))).find(Boolean);
  if (link) sidebar.link = link;
  const source = more.map((a) => moreAt(textOf(a))).find(Boolean) ?? (more[0] ? textOf(more[0]) : '');
  if (source) sidebar.source = source;
  return sidebar;
}

export function parseDuckDuckGoRelated(dom: SerpDom): string[] {
  const items = [...dom.byClass('related-searches__item'), ...dom.byClass('related-searches__link')];
  return uniqueTexts(items.map((e) => textOf(e.name === 'a' ? e : findFirst(e, (x) => x.name === 'a') ?? e)));
}

/** The hidden inputs of a form, as DuckDuckGo expects them back. */
function formParams(form: Element): Record<string, string> {
  const out: Record<string, string> = {};
  for (const input of findAll(form, (e) => e.name === 'input' && attr(e, 'type') !== 'submit')) {
    const name = attr(input, 'name');
    if (name) out[name] = attr(input, 'value');
  }
  return out;
}

/**
 * Pagination facts. HTML endpoint: the next form's `dc` is the 1-based index of the next page's first result, so
 * this page starts at `dc - 1 - results`; a page without a "Previous" form is the first. JavaScript page: the first
 * result's id `r1-N` is its 0-based index; "More results" means there is a next page.
 */
export function parseDuckDuckGoPagination(dom: SerpDom, resultCount: number, firstResult?: Element | null): SearchPagination {
  const forms = findAll(dom.root, (e) => e.name === 'form' && findAll(e, (x) => x.name === 'input' && attr(x, 'name') === 's').length > 0);
  const label = (f: Element) => attr(findFirst(f, (e) => e.name === 'input' && attr(e, 'type') === 'submit'), 'value');
  const prev = forms.find((f) => /prev/i.test(label(f))) ?? (forms.length > 1 ? forms[0] : undefined);
  const next = forms.find((f) => f !== prev);
  const pagination: SearchPagination = { offset: null, hasNext: !!next };
  if (next) {
    pagination.nextParams = formParams(next);
    const dc = Number(pagination.nextParams.dc);
    if (!prev) pagination.offset = 0;
    else if (Number.isInteger(dc) && dc - 1 - resultCount >= 0) pagination.offset = dc - 1 - resultCount;
  }
  const rid = firstResult ? /^r1-(\d+)$/.exec(attr(firstResult, 'id')) : null;
  if (pagination.offset === null && rid) pagination.offset = Number(rid[1]);
  if (!pagination.hasNext && dom.byClass('result--more__btn').length) pagination.hasNext = true;
  // An HTML-endpoint page without any pagination form is the only page there is.
  if (pagination.offset === null && !forms.length && !rid && resultCount > 0) pagination.offset = 0;
  return pagination;
}
