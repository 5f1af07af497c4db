/**
 * Corpus figures of the `/search` parsers, shared by web/search-corpus.spec.ts (which pins them) and
 * bench/serp/score.ts (which prints them): Bing against the reference parses, DuckDuckGo against the hand counts.
 */
import path from 'node:path';
import { parseBingOrganic } from '#serp/bing/bing-provider.js';
import { bingReferenceCases, DUCKDUCKGO_PINNED_COUNTS, readPage } from './corpus.js';
import { matchResults, type ReferenceResult } from './match.js';
import { loadDom } from '#serp/dom/serp-dom.js';
import { parseDuckDuckGoSearchPage } from '#serp/duckduckgo/duckduckgo-provider.js';

export interface BingReferenceFigures {
  pages: number;
  total: number;
  /** Reference results found with the same link and title, in order. */
  titleLink: number;
  /** … and a snippet with token F1 ≥ 0.9 (conformance/match.ts). */
  withSnippet: number;
  misses: string[];
}

export function bingReferenceFigures(root: string): BingReferenceFigures {
  const f: BingReferenceFigures = { pages: 0, total: 0, titleLink: 0, withSnippet: 0, misses: [] };
  for (const c of bingReferenceCases(root)) {
    const ref = JSON.parse(readPage(c.reference)) as { organic?: ReferenceResult[] };
    if (!ref.organic) continue;
    const ours = parseBingOrganic(loadDom(readPage(c.html)));
    const full = matchResults(ours, ref.organic);
    const titleLink = matchResults(ours, ref.organic.map((r) => ({ ...r, snippet: '' })));
    f.pages++;
    f.total += full.total;
    f.titleLink += titleLink.matched;
    f.withSnippet += full.matched;
    f.misses.push(...full.misses.map((m) => `${c.name}: ${m.ref.url} — ${m.why}`));
  }
  return f;
}

export interface DuckDuckGoFigures {
  pages: number;
  complete: number;
  results: number;
  expected: number;
  withAnswer: number;
  withSidebar: number;
  mismatches: string[];
}

export function duckDuckGoFigures(root: string): DuckDuckGoFigures {
  const f: DuckDuckGoFigures = { pages: 0, complete: 0, results: 0, expected: 0, withAnswer: 0, withSidebar: 0, mismatches: [] };
  for (const [rel, count] of Object.entries(DUCKDUCKGO_PINNED_COUNTS)) {
    const page = parseDuckDuckGoSearchPage(readPage(path.join(root, 'duckduckgo', rel)), { page: 1 }).page;
    const got = page?.search_results.length ?? 0;
    f.pages++;
    f.expected += count;
    f.results += Math.min(got, count);
    if (got === count) f.complete++;
    else f.mismatches.push(`${rel}: ${got} results, pinned ${count}`);
    if (page?.direct_answer) f.withAnswer++;
    if (page?.sidebar) f.withSidebar++;
  }
  return f;
}
