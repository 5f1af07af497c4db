/**
 * Google verticals (`tbm=nws|isch|lcl|shop`) and the local pack of a web search, in Serper's item shapes.
 * Items are recognised as cards — a titled link plus the lines around it — rather than by one generation's
 * class names; known classes and data attributes (data-cid, imgres links, .rg_meta JSON) are used where stable.
 */
import {
  attr, closest, findAll, findFirst, hasAnyClass, isInside, parentEl, textOf, type Element, type SerpDom,
} from '../dom/serp-dom.js';
import type { ImageResult, NewsResult, PlaceResult, SerpType, ShoppingResult, VerticalItem } from '../types.js';
import { PRICE, parseCount, parseRating, textLines } from '../util/card-text.js';
import { looksLikeDate, splitLeadingDate } from '../util/dates.js';
import { hostOf, unwrapGoogleLink } from '../util/urls.js';
import { mainContainer } from './google-organic.js';

export function parseGoogleVertical(dom: SerpDom, type: Exclude<SerpType, 'search'>, offset: number): VerticalItem[] {
  switch (type) {
    case 'news':
      return parseGoogleNews(dom, offset);
    case 'images':
      return parseGoogleImages(dom, offset);
    case 'places':
      return parseGooglePlaces(dom, offset);
    case 'shopping':
      return parseGoogleShopping(dom, offset);
  }
}

function imgUrl(el: Element | null | undefined): string | undefined {
  if (!el) return undefined;
  for (const k of ['data-src', 'src', 'data-iurl']) {
    const v = attr(el, k);
    if (/^https?:\/\//i.test(v)) return v;
    if (v.startsWith('//')) return `https:${v}`;
  }
  return undefined;
}

const isHeading = (e: Element) => e.name === 'h3' || (attr(e, 'role') === 'heading' && e.name !== 'a');

// -------------------------------------------------------------------------------------------------------- news

/** Largest ancestor of `el` (below `limit`) that holds no other element of `set`. */
function cardOf(el: Element, set: Set<Element>, limit: Element | null): Element {
  let card = el;
  for (;;) {
    const p = parentEl(card);
    if (!p || p === limit) return card;
    if (findAll(p, (e) => e !== el && set.has(e), 1).length) return card;
    card = p;
  }
}

export function parseGoogleNews(dom: SerpDom, offset: number): NewsResult[] {
  const main = mainContainer(dom);
  if (!main) return [];
  const titled: Array<{ a: Element; heading: Element; link: string }> = [];
  const seen = new Set<string>();
  for (const a of dom.byTag('a')) {
    if (!isInside(a, main) || closest(a, (e) => ['tads', 'tadsb', 'bottomads', 'rhs', 'botstuff', 'appbar'].includes(e.attribs.id ?? ''))) continue;
    const link = unwrapGoogleLink(attr(a, 'href'));
    if (!/^https?:/.test(link)) continue;
    const heading = findFirst(a, isHeading) ?? (parentEl(a)?.name === 'h3' ? parentEl(a) : null);
    if (!heading || seen.has(link)) continue;
    seen.add(link);
    titled.push({ a, heading, link });
  }
  const anchors = new Set(titled.map((t) => t.a));
  return titled.map(({ a, heading, link }, i) => {
    const card = cardOf(a, anchors, main);
    const title = textOf(heading);
    const lines = textLines(card, (e) => e === heading);
    const dateLine = lines.find((l) => looksLikeDate(l.replace(/^[·\s]+|[·\s]+$/g, '')));
    let snippet = lines.filter((l) => l !== dateLine && l !== title).sort((x, y) => y.length - x.length)[0] ?? '';
    const split = splitLeadingDate(snippet.replace(/^(.{1,30}?) · /, '$1 — '));
    let date = dateLine?.replace(/^[·\s]+|[·\s]+$/g, '');
    if (split.date) {
      date = date ?? split.date;
      snippet = split.rest;
    }
    const source = lines.find((l) => l !== snippet && l !== dateLine && l.length < 60 && !title.includes(l) && !looksLikeDate(l)
      && !split.date?.includes(l)) ?? hostOf(link).replace(/^www\./, '');
    const item: NewsResult = { title, link, snippet, date: date ?? '', source, position: offset + i + 1 };
    const img = imgUrl(findFirst(card, (e) => e.name === 'img' && !!imgUrl(e) && Number(attr(e, 'width') || 100) > 20));
    if (img) item.imageUrl = img;
    return item;
  });
}

// ------------------------------------------------------------------------------------------------------ images

interface RgMeta { ou?: string; ru?: string; pt?: string; ow?: number; oh?: number; tu?: string; isu?: string; s?: string }

function queryValue(url: string, key: string): string | undefined {
  const m = new RegExp(`[?&]${key}=([^&#]*)`).exec(url);
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return m[1];
  }
}

export function parseGoogleImages(dom: SerpDom, offset: number): ImageResult[] {
  const out: ImageResult[] = [];
  const seen = new Set<string>();
  const push = (r: Omit<ImageResult, 'position'>) => {
    if (!r.imageUrl || seen.has(r.imageUrl)) return;
    seen.add(r.imageUrl);
    out.push({ ...r, position: offset + out.length + 1 });
  };
  // 2015-2019: every thumbnail carries an `imgres?imgurl=…&imgrefurl=…&w=&h=` link and often `.rg_meta` JSON.
  for (const a of dom.byTag('a')) {
    const href = attr(a, 'href');
    if (!/\/imgres\?/.test(href)) continue;
    const imageUrl = queryValue(href, 'imgurl') ?? '';
    const link = queryValue(href, 'imgrefurl') ?? '';
    const holder = parentEl(a);
    let meta: RgMeta = {};
    const metaEl = holder && findFirst(holder, (e) => hasAnyClass(e, ['rg_meta']));
    if (metaEl) {
      try {
        meta = JSON.parse(textOf(metaEl)) as RgMeta;
      } catch {
        meta = {};
      }
    }
    const img = findFirst(a, (e) => e.name === 'img');
    const label = textOf(findFirst(a, (e) => hasAnyClass(e, ['rg_ilmn'])));
    const dims = /(\d+)\s*[×x]\s*(\d+)/.exec(label);
    const r: Omit<ImageResult, 'position'> = {
      title: meta.pt ?? (attr(img, 'alt') || label),
      imageUrl: meta.ou ?? imageUrl,
      source: meta.isu ?? hostOf(link).replace(/^www\./, ''),
      domain: hostOf(meta.ru ?? link),
      link: meta.ru ?? link,
    };
    const w = meta.ow ?? Number(queryValue(href, 'w') ?? dims?.[1]);
    const h = meta.oh ?? Number(queryValue(href, 'h') ?? dims?.[2]);
    if (w) r.imageWidth = w;
    if (h) r.imageHeight = h;
    const thumb = meta.tu ?? imgUrl(img);
    if (thumb) r.thumbnailUrl = thumb;
    push(r);
  }
  if (out.length) return out;
  // No-JS image search: a grid of thumbnails, each linking (via /url?q=) to the page that shows the image.
  for (const img of dom.byTag('img')) {
    const thumb = imgUrl(img);
    if (!thumb || !/gstatic\.com\/images|encrypted-tbn/.test(thumb)) continue;
    const a = closest(img, (e) => e.name === 'a');
    const cell = a && (closest(a, (e) => e.name === 'td' || hasAnyClass(e, ['RAyV4b', 'isv-r', 'ivg-i'])) ?? parentEl(a));
    const pageLink = cell && findAll(cell, (e) => e.name === 'a').map((x) => unwrapGoogleLink(attr(x, 'href'))).find((l) => /^https?:/.test(l));
    if (!pageLink) continue;
    const lines = cell ? textLines(cell) : [];
    push({
      title: lines.find((l) => l.length > 3 && !/^[\w.-]+\.[a-z]{2,}$/i.test(l)) ?? attr(img, 'alt'),
      imageUrl: thumb,
      thumbnailUrl: thumb,
      source: hostOf(pageLink).replace(/^www\./, ''),
      domain: hostOf(pageLink),
      link: pageLink,
    });
  }
  return out;
}

// ------------------------------------------------------------------------------------------------------ places

function coordinates(card: Element): { latitude?: number; longitude?: number } {
  for (const e of [card, ...findAll(card, () => true)]) {
    const lat = Number(e.attribs['data-lat'] ?? NaN);
    const lng = Number(e.attribs['data-lng'] ?? e.attribs['data-long'] ?? NaN);
    if (Number.isFinite(lat) && Number.isFinite(lng)) return { latitude: lat, longitude: lng };
    const href = e.attribs.href ?? e.attribs['data-url'] ?? '';
    const m = /!3d(-?\d+\.\d+)!4d(-?\d+\.\d+)/.exec(href) ?? /@(-?\d+\.\d+),(-?\d+\.\d+)/.exec(href)
      ?? /[?&](?:ll|sll)=(-?\d+\.\d+),(-?\d+\.\d+)/.exec(href);
    if (m) return { latitude: Number(m[1]), longitude: Number(m[2]) };
  }
  return {};
}

/** One place card: heading, then "4.4(71) · $$ · Coffee shop" and "1594 Market St · …" lines. */
function parsePlaceCard(card: Element, position: number): PlaceResult | null {
  const heading = findFirst(card, (e) => isHeading(e) || hasAnyClass(e, ['dbg0pd', 'OSrXXb', '_rl', 'qBF1Pd']));
  const title = textOf(heading);
  if (!title) return null;
  const place: PlaceResult = { position, title };
  const ratingEl = findFirst(card, (e) => /^Rated [\d.,]+ out of/i.test(attr(e, 'aria-label')));
  const lines = textLines(card, (e) => e === heading);
  const joined = lines.join(' · ');
  const inline = /(\d[.,]\d)\s*\(([\d.,]+[KkMm]?)\)/.exec(joined.replace(/ · \(/g, '('));
  const rating = ratingEl ? parseRating(attr(ratingEl, 'aria-label')) : inline ? parseRating(inline[1]) : undefined;
  if (rating !== undefined) place.rating = rating;
  const countLine = lines.find((l) => /^\(([\d.,]+[KkMm]?)\)$/.test(l));
  const count = countLine ? parseCount(countLine) : inline ? parseCount(inline[2]) : undefined;
  if (count !== undefined) place.ratingCount = count;
  const parts = joined.split(/\s*·\s*/).map((p) => p.trim()).filter(Boolean);
  const isMeta = (p: string) => /^\d[.,]\d/.test(p) || /^\(?[\d.,]+[KkMm]?\)$/.test(p) || /^[$€£¥]{1,4}$/.test(p) || /^\d[.,]\d\(/.test(p);
  const rest = parts.filter((p) => !isMeta(p) && p !== title);
  const category = rest.find((p) => !/\d/.test(p) && p.length < 40);
  if (category) place.category = category;
  const address = rest.find((p) => /\d/.test(p) && !/^(open|closed|opens|closes|ouvert|fermé)/i.test(p) && !/\d{3}[\s-]\d{3,4}/.test(p));
  if (address) place.address = address;
  const cid = card.attribs['data-cid'] ?? findFirst(card, (e) => /^\d{5,}$/.test(e.attribs['data-cid'] ?? ''))?.attribs['data-cid'];
  if (cid && /^\d+$/.test(cid)) place.cid = cid;
  Object.assign(place, coordinates(card));
  return place;
}

function placeCards(dom: SerpDom): Element[] {
  const cards: Element[] = [];
  const seenCid = new Set<string>();
  // Google customer ids are long decimal numbers; other widgets reuse `data-cid` for short hex ids.
  const withCid = dom.withAttr('data-cid').filter((e) => /^\d{5,}$/.test(e.attribs['data-cid'] ?? ''));
  for (const el of [...dom.byClass('VkpGBb'), ...dom.byClass('rllt__details'), ...withCid]) {
    const card = closest(el, (e) => hasAnyClass(e, ['VkpGBb', 'uMdZh', 'rl_tile'])) ?? el;
    if (cards.some((c) => isInside(card, c) || isInside(c, card))) continue;
    const cid = card.attribs['data-cid'] ?? findFirst(card, (e) => /^\d{5,}$/.test(e.attribs['data-cid'] ?? ''))?.attribs['data-cid'];
    if (cid && seenCid.has(cid)) continue;
    if (cid) seenCid.add(cid);
    cards.push(card);
  }
  return cards.sort((a, b) => dom.order(a) - dom.order(b));
}

export function parseGooglePlaces(dom: SerpDom, offset: number): PlaceResult[] {
  const out: PlaceResult[] = [];
  for (const card of placeCards(dom)) {
    const p = parsePlaceCard(card, offset + out.length + 1);
    if (p) out.push(p);
  }
  return out;
}

/** The local pack inside a web search, when present. */
export function parseGoogleLocalPack(dom: SerpDom): PlaceResult[] | undefined {
  const places = parseGooglePlaces(dom, 0);
  return places.length ? places : undefined;
}

// ---------------------------------------------------------------------------------------------------- shopping

function productLink(a: Element | null): string {
  if (!a) return '';
  const href = attr(a, 'href');
  const unwrapped = unwrapGoogleLink(href);
  if (unwrapped) return unwrapped;
  if (href.startsWith('/shopping/') || href.startsWith('/aclk')) return `https://www.google.com${href}`;
  return '';
}

export function parseGoogleShopping(dom: SerpDom, offset: number): ShoppingResult[] {
  const main = mainContainer(dom);
  if (!main) return [];
  const titles = findAll(main, (e) => isHeading(e) || hasAnyClass(e, ['sh-np__product-title', 'tAxDx', 'Xjkr3b', 'rgHvZc', 'pymv4e']))
    .filter((t) => textOf(t));
  const titleSet = new Set(titles);
  const out: ShoppingResult[] = [];
  for (const t of titles) {
    if (findFirst(t, (e) => titleSet.has(e))) continue;
    const card = cardOf(t, titleSet, main);
    const lines = textLines(card, (e) => e === t);
    const price = lines.map((l) => PRICE.exec(l)?.[0]?.trim()).find(Boolean);
    if (!price) continue;
    const a = closest(t, (e) => e.name === 'a') ?? findFirst(t, (e) => e.name === 'a') ?? findFirst(card, (e) => e.name === 'a');
    const link = productLink(a);
    const item: ShoppingResult = { title: textOf(t), source: '', link, price, position: offset + out.length + 1 };
    const offers = lines.find((l) => /(\d+\+?)\s*(stores|offers|shops|magasins|Händler|tiendas)/i.test(l));
    if (offers) item.offers = /(\d+\+?)/.exec(offers)![1];
    const delivery = lines.find((l) => /delivery|shipping|livraison|versand|envío|lieferung/i.test(l));
    if (delivery) item.delivery = delivery;
    const ratingEl = findFirst(card, (e) => /\d(?:[.,]\d)? (?:out of|sur|von) 5|^Rated/i.test(attr(e, 'aria-label')));
    if (ratingEl) item.rating = parseRating(attr(ratingEl, 'aria-label'));
    // "(1,234)" or "1,234 reviews"; a bare "4.5" is the rating, not a count.
    const reviews = lines.find((l) => /^\([\d.,]+[KkMm]?\)$/.test(l) || /[\d,.]+\s*(product )?reviews?/i.test(l));
    if (reviews) item.ratingCount = parseCount(reviews);
    item.source = lines.find((l) => l !== price && !PRICE.test(l) && l !== offers && l !== delivery && l !== reviews
      && l.length < 40 && !/^[\d.,()\s]+$/.test(l) && !/stores|offers/i.test(l) && !/^from\b/i.test(l))
      ?? (/(^|\.)google\./.test(hostOf(link)) ? '' : hostOf(link).replace(/^www\./, ''));
    const pid = /\/shopping\/product\/(?:\d+\/)?(\d+)/.exec(findAll(card, (e) => e.name === 'a').map((x) => attr(x, 'href')).join(' '))?.[1]
      ?? card.attribs['data-docid'] ?? findFirst(card, (e) => !!e.attribs['data-docid'])?.attribs['data-docid'];
    if (pid) item.productId = pid;
    const img = imgUrl(findFirst(card, (e) => e.name === 'img' && !!imgUrl(e)));
    if (img) item.imageUrl = img;
    out.push(item);
  }
  return out;
}
