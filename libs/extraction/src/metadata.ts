/**
 * Page metadata from the head and markup: JSON-LD first (the most deliberate source), then Dublin Core / Open
 * Graph / Twitter / plain <meta>, then markup (<title>, <html lang>, rel=author, <time>). Must run on the document
 * before cleaning, which removes the JSON-LD <script> blocks.
 */
import type { PageMetadata } from '../../contracts/src/index.js';
import { type Document, type Element, isTag, textContent, findFirst, parseHtml, type ParentNode } from './dom.js';
import { documentBaseUrl } from './clean.js';

interface JsonLdFacts {
  title?: string;
  description?: string;
  author?: string;
  published?: string;
  siteName?: string;
  language?: string;
}

const ARTICLE_TYPE_RE =
  /^(?:Article|AdvertiserContentArticle|NewsArticle|AnalysisNewsArticle|AskPublicNewsArticle|BackgroundNewsArticle|OpinionNewsArticle|ReportageNewsArticle|ReviewNewsArticle|Report|SatiricalArticle|ScholarlyArticle|MedicalScholarlyArticle|SocialMediaPosting|BlogPosting|LiveBlogPosting|DiscussionForumPosting|TechArticle|APIReference|WebPage|Recipe|Review)$/;

function clean(s: string | undefined): string | undefined {
  if (s === undefined) return undefined;
  const t = s.replace(/\s+/g, ' ').trim();
  return t === '' ? undefined : t;
}

function names(v: unknown): string | undefined {
  if (typeof v === 'string') return clean(v);
  if (Array.isArray(v)) {
    const all = v.map(names).filter((x): x is string => !!x);
    return all.length ? all.join(', ') : undefined;
  }
  if (v && typeof v === 'object' && 'name' in v) return names((v as { name: unknown }).name);
  return undefined;
}

function readJsonLd(scripts: string[]): JsonLdFacts {
  const facts: JsonLdFacts = {};
  for (const raw of scripts) {
    let data: unknown;
    try {
      data = JSON.parse(raw.replace(/^\s*<!\[CDATA\[|\]\]>\s*$/g, ''));
    } catch {
      continue;
    }
    const items: unknown[] = [];
    const push = (d: unknown): void => {
      if (Array.isArray(d)) d.forEach(push);
      else if (d && typeof d === 'object') {
        items.push(d);
        const graph = (d as Record<string, unknown>)['@graph'];
        if (graph) push(graph);
      }
    };
    push(data);
    for (const it of items) {
      const o = it as Record<string, unknown>;
      const types = ([] as unknown[]).concat(o['@type'] ?? []).map(String);
      if (!types.some((t) => ARTICLE_TYPE_RE.test(t))) continue;
      const isPage = types.every((t) => t === 'WebPage');
      if (isPage && facts.title) continue;
      const headline = typeof o.headline === 'string' ? o.headline : typeof o.name === 'string' ? o.name : undefined;
      facts.title ??= clean(headline);
      facts.description ??= typeof o.description === 'string' ? clean(o.description) : undefined;
      facts.author ??= names(o.author);
      facts.published ??= typeof o.datePublished === 'string' ? clean(o.datePublished) : undefined;
      facts.siteName ??= names(o.publisher);
      facts.language ??= typeof o.inLanguage === 'string' ? clean(o.inLanguage) : undefined;
    }
  }
  return facts;
}

/** Document title with the site name split off, Readability's way (keep the longer, meaningful part). */
function titleFromTitleTag(raw: string): string {
  const orig = raw.replace(/\s+/g, ' ').trim();
  let title = orig;
  const wordCount = (s: string): number => s.split(/\s+/).filter(Boolean).length;
  const sep = /\s[|\-–—\\/>»]\s/;
  if (sep.test(title)) {
    const hierarchical = /\s[\\/>»]\s/.test(title);
    title = orig.replace(/(.*)\s[|\-–—\\/>»]\s.*/, '$1');
    if (wordCount(title) < 3) title = orig.replace(/[^|\-–—\\/>»]*[|\-–—\\/>»]\s*(.*)/i, '$1');
    if (hierarchical && wordCount(title) < 3) title = orig;
  } else if (title.includes(': ')) {
    const after = title.substring(title.lastIndexOf(':') + 1).trim();
    title = wordCount(after) >= 3 ? after : title;
  }
  title = title.trim();
  const wc = wordCount(title);
  if (wc <= 4 && (!sep.test(orig) || wc !== wordCount(orig.replace(/[|\-–—\\/>»]+/g, '')) - 1)) title = orig;
  return title;
}

function collect(doc: Document): { metas: Map<string, string>; jsonLd: string[]; links: Element[]; title?: string; htmlLang?: string } {
  const metas = new Map<string, string>();
  const jsonLd: string[] = [];
  const links: Element[] = [];
  let title: string | undefined;
  let htmlLang: string | undefined;
  const walk = (n: ParentNode): void => {
    for (const c of n.children) {
      if (!isTag(c)) continue;
      const a = c.attribs;
      switch (c.name) {
        case 'html':
          htmlLang ??= a.lang ?? a['xml:lang'];
          break;
        case 'meta': {
          const content = a.content;
          if (content === undefined) break;
          for (const key of [a.property, a.name, a.itemprop, a['http-equiv']]) {
            if (!key) continue;
            for (const k of key.toLowerCase().split(/\s+/)) if (k && !metas.has(k)) metas.set(k, content);
          }
          break;
        }
        case 'script':
          if (a.type?.toLowerCase() === 'application/ld+json') jsonLd.push(textContent(c));
          continue;
        case 'link':
          links.push(c);
          break;
        case 'title':
          if (title === undefined && !hasSvgAncestor(c)) title = textContent(c);
          continue;
        case 'style':
          continue;
      }
      walk(c);
    }
  };
  walk(doc);
  return { metas, jsonLd, links, title, htmlLang };
}

function h1Text(doc: Document): string | undefined {
  const h1 = findFirst(doc, (e) => e.name === 'h1');
  return h1 ? clean(textContent(h1)) : undefined;
}

function hasSvgAncestor(el: Element): boolean {
  for (let p = el.parent; p; p = p.parent) if (isTag(p) && p.name === 'svg') return true;
  return false;
}

function absolute(u: string | undefined, base: URL | undefined): string | undefined {
  if (!u) return undefined;
  try {
    return new URL(u.trim(), base).href;
  } catch {
    return undefined;
  }
}

/** Metadata of an already parsed (not yet cleaned) document. */
export function extractMetadataFromDocument(doc: Document, url: string): PageMetadata {
  const { metas, jsonLd, links, title: titleTag, htmlLang } = collect(doc);
  const m = (...keys: string[]): string | undefined => {
    for (const k of keys) {
      const v = clean(metas.get(k));
      if (v) return v;
    }
    return undefined;
  };
  const ld = readJsonLd(jsonLd);
  const base = documentBaseUrl(doc, url);

  const title =
    ld.title ??
    m('dc:title', 'dcterm:title', 'og:title', 'weibo:article:title', 'weibo:webpage:title', 'title', 'twitter:title', 'parsely-title') ??
    (titleTag ? clean(titleFromTitleTag(titleTag)) : undefined) ??
    h1Text(doc);

  let author = ld.author ?? m('dc:creator', 'dcterm:creator', 'author', 'parsely-author', 'sailthru.author', 'byl');
  if (!author) {
    const art = m('article:author');
    if (art && !/^https?:\/\//.test(art)) author = art;
  }
  if (!author) {
    const el = findFirst(doc, (e) => e.attribs.rel === 'author' || e.attribs.itemprop === 'author');
    const t = el ? clean(textContent(el)) : undefined;
    if (t && t.length < 100) author = t;
  }
  author = author?.replace(/^by\s+/i, '');

  let published =
    ld.published ??
    m('article:published_time', 'parsely-pub-date', 'datepublished', 'date', 'dc.date', 'dc.date.issued', 'dcterms.date', 'sailthru.date', 'pubdate', 'publishdate', 'og:published_time', 'article.published', 'published_time');
  if (!published) {
    const time = findFirst(doc, (e) => (e.name === 'time' && !!e.attribs.datetime) || e.attribs.itemprop === 'datePublished');
    published = clean(time?.attribs.datetime ?? time?.attribs.content);
  }

  const canonicalLink = links.find((l) => l.attribs.rel?.toLowerCase().split(/\s+/).includes('canonical'))?.attribs.href;
  const meta: PageMetadata = {};
  if (title) meta.title = title;
  const description =
    ld.description ?? m('dc:description', 'dcterm:description', 'og:description', 'weibo:article:description', 'weibo:webpage:description', 'description', 'twitter:description');
  if (description) meta.description = description;
  const language = clean(htmlLang) ?? m('content-language', 'og:locale', 'dc.language', 'language') ?? ld.language;
  if (language) meta.language = language;
  const canonicalUrl = absolute(canonicalLink, base) ?? absolute(m('og:url'), base);
  if (canonicalUrl) meta.canonicalUrl = canonicalUrl;
  if (published) meta.publishedDate = published;
  if (author) meta.author = author;
  const siteName = ld.siteName ?? m('og:site_name', 'application-name');
  if (siteName) meta.siteName = siteName;
  return meta;
}

/** Metadata of an HTML string; never throws. */
export function extractMetadata(html: string, url: string): PageMetadata {
  try {
    return extractMetadataFromDocument(parseHtml(html), url);
  } catch {
    return {};
  }
}
