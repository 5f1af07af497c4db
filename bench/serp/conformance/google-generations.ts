/**
 * Per-folder report on the Google pages of the corpus, for bench/serp/score.ts: how many ordinary result pages
 * (not a captcha, consent or no-results page) come out with every organic result in order, how many are wrongly
 * reported as blocked, and on how many the fallback reader was needed. "Every result in order" is judged against
 * the hand-counted pins (google-pinned.ts: count, first and last title) or, for the 2023 pages, against the
 * reference parse (every reference link found, in order). Also: the fallback reader alone on pages whose layout
 * was made unknown by stripping it.
 */
import path from 'node:path';
import { loadDom } from '#serp/dom/serp-dom.js';
import { parseGoogleSerp } from '#serp/google/google-provider.js';
import { fallbackOrganicEntries } from '#serp/google/google-fallback.js';
import { layoutOrganicEntries } from '#serp/google/google-organic.js';
import type { OrganicResult } from '#serp/types.js';
import { allPages, googleReferenceCases, readPage, VERDICT_CASES } from './corpus.js';
import { GOOGLE_IMAGES_PAGES, GOOGLE_ORDINARY_EMPTY_PAGES, GOOGLE_PINNED_PAGES } from './google-pinned.js';
import { scoreReferenceCase } from './reference-score.js';
import { normalizeUrl } from '#serp/util/urls.js';

export interface GenerationRow {
  folder: string;
  /** Ordinary pages: neither block nor no-results pages. */
  pages: number;
  /** Pages with an expectation (pin or reference parse) ... */
  checked: number;
  /** ... of which every organic result came out, in order. */
  inFull: number;
  /** Ordinary pages reported as blocked. */
  blocked: number;
  fallback: number;
  misses: string[];
}

/** "zlurad-serp-parser/desktop-2021", "serp-spider-search-engine-google/pages-mobile", "bisohns-search-engine-parser". */
function folderOf(rel: string): string {
  const parts = rel.split('/');
  if (parts[0] === 'zlurad-serp-parser') return parts.slice(0, 2).join('/');
  if (parts[0] === 'serp-spider-search-engine-google') return `${parts[0]}/${parts[2]}`;
  return parts[0];
}

export function googleGenerationReport(root: string): GenerationRow[] {
  const base = path.join(root, 'google');
  const special = new Set(VERDICT_CASES.filter((c) => c.engine === 'google').map((c) => path.join(root, c.file)));
  const pins = new Map(GOOGLE_PINNED_PAGES.map(([file, count, first, last]) => [path.join(base, file), { count, first, last }]));
  const empty = new Set(GOOGLE_ORDINARY_EMPTY_PAGES.map((f) => path.join(base, f)));
  const images = new Map(GOOGLE_IMAGES_PAGES.map(([file, count, first]) => [path.join(base, file), { count, first }]));
  const refs = new Map(googleReferenceCases(root).map((c) => [c.html, c]));
  const rows = new Map<string, GenerationRow>();
  for (const { engine, file } of allPages(root)) {
    if (engine !== 'google' || special.has(file)) continue;
    const rel = path.relative(base, file);
    const folder = folderOf(rel);
    const row = rows.get(folder) ?? { folder, pages: 0, checked: 0, inFull: 0, blocked: 0, fallback: 0, misses: [] };
    rows.set(folder, row);
    row.pages++;
    const { verdict, result } = parseGoogleSerp(readPage(file), { type: 'search', page: 1, num: 10 });
    const organic = (result?.serp_search_results ?? []) as OrganicResult[];
    if (verdict.kind === 'blocked') row.blocked++;
    if (result?.parser === 'fallback') row.fallback++;
    let ok: boolean | undefined;
    const pin = pins.get(file);
    const ref = refs.get(file);
    if (pin) ok = organic.length === pin.count && organic[0]?.title === pin.first && organic.at(-1)?.title === pin.last;
    else if (empty.has(file)) ok = verdict.kind === 'ok' && organic.length === 0;
    else if (images.has(file)) ok = organic.length === images.get(file)?.count && organic[0]?.link === images.get(file)?.first;
    else if (ref) {
      const s = scoreReferenceCase(ref, 'google');
      // Every reference link found, in order; titles and snippets are scored by the reference match rate.
      if (s) ok = s.organic.misses.every((m) => m.why !== 'link not found' && m.why !== 'out of order');
    }
    if (ok === undefined) continue;
    row.checked++;
    if (ok && verdict.kind !== 'blocked') row.inFull++;
    else row.misses.push(rel);
  }
  return [...rows.values()].sort((a, b) => a.folder.localeCompare(b.folder));
}

export interface FallbackAloneScore {
  pages: number;
  /** Pages on which the fallback found every result of the layout reader, in the same order. */
  complete: number;
  results: number;
  found: number;
  /** Entries the fallback returned that the layout reader does not (carousels, sitelinks, knowledge links). */
  extra: number;
}

/**
 * The fallback reader alone on pages made unknown: every class and id removed ('classes') and, in addition, every
 * heading (h3 and role=heading) turned into a plain div ('headings'). Compared with what the layout reader finds on
 * the intact page (its Google-hosted results left out: the fallback never returns Google's own pages).
 */
export function fallbackAloneScore(root: string, strip: 'classes' | 'headings'): FallbackAloneScore {
  const special = new Set(VERDICT_CASES.filter((c) => c.engine === 'google').map((c) => path.join(root, c.file)));
  const score: FallbackAloneScore = { pages: 0, complete: 0, results: 0, found: 0, extra: 0 };
  for (const { engine, file } of allPages(root)) {
    if (engine !== 'google' || special.has(file)) continue;
    const html = readPage(file);
    const expected = layoutOrganicEntries(loadDom(html)).map((e) => normalizeUrl(e.result.link))
      .filter((u) => !/(^|\.)google\.[a-z.]+$/.test(u.split(/[/?]/)[0]));
    if (!expected.length) continue;
    let unknown = html.replace(/ (?:class|id)=(?:"[^"]*"|'[^']*'|[^\s>]+)/g, '');
    if (strip === 'headings') unknown = unknown.replace(/<(\/?)h3\b/gi, '<$1div').replace(/ role="heading"/g, '');
    const got = fallbackOrganicEntries(loadDom(unknown)).map((e) => normalizeUrl(e.result.link));
    const want = new Set(expected);
    const have = new Set(got);
    const found = expected.filter((u) => have.has(u));
    score.pages++;
    score.results += expected.length;
    score.found += found.length;
    score.extra += got.filter((u) => !want.has(u)).length;
    if (found.length === expected.length && got.filter((u) => want.has(u)).join() === expected.join()) score.complete++;
  }
  return score;
}
