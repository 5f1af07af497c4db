/**
 * Google pages of every generation in the corpus, counted by hand (google-pinned.ts): every organic result, in
 * order, and no ordinary page reported as blocked. Skipped, with a message, when the corpus is absent.
 */
import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseGoogleSerp } from '#serp/google/google-provider.js';
import type { OrganicResult } from '#serp/types.js';
import { corpusPresent } from '#test/support/requires.js';
import { corpusRoot, readPage } from '#bench/serp/conformance/corpus.js';
import { fallbackAloneScore } from '#bench/serp/conformance/google-generations.js';
import { GOOGLE_IMAGES_PAGES, GOOGLE_ORDINARY_EMPTY_PAGES, GOOGLE_PINNED_PAGES } from '#bench/serp/conformance/google-pinned.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const root = corpusPresent(path.resolve(repoRoot, '../shared/corpus/serp'), 'Google generations') ? corpusRoot(repoRoot) : null;
const describeCorpus = root ? describe : describe.skip;
const google = (rel: string) => path.join(root ?? '', 'google', rel);
const q = { type: 'search' as const, page: 1, num: 10 };
const FALLBACK_PAGES = new Set(['bisohns-search-engine-parser/html/googlenews__googlenews-synopsis__3e39d1a.html.gz']);

describeCorpus('Google pages of every generation (hand-counted)', () => {
  it.each(GOOGLE_PINNED_PAGES)('%s: %i organic results, first and last in place', (file, count, first, last) => {
    const { verdict, result } = parseGoogleSerp(readPage(google(file)), q);
    const organic = (result?.serp_search_results ?? []) as OrganicResult[];
    expect(verdict).toEqual({ kind: 'ok' });
    // Known layouts need no fallback; the 2020 news-vertical page (cards only) is read by it.
    expect(result?.parser).toBe(FALLBACK_PAGES.has(file) ? 'fallback' : undefined);
    expect({ count: organic.length, first: organic[0]?.title, last: organic.at(-1)?.title }).toEqual({ count, first, last });
    expect(organic.map((o) => o.position)).toEqual(organic.map((_, i) => i + 1));
    expect(new Set(organic.map((o) => o.link)).size).toBe(organic.length);
  });

  it.each(GOOGLE_ORDINARY_EMPTY_PAGES)('%s: not a result page, ok with no organic result, never blocked', (file) => {
    const { verdict, result } = parseGoogleSerp(readPage(google(file)), q);
    expect(verdict).toEqual({ kind: 'ok' });
    expect(result).toMatchObject({ serp_search_results: [], parser: 'none' });
  });

  it.each(GOOGLE_IMAGES_PAGES)('%s: an Images page read as a web search gives its %i images\' source pages', (file, count, first) => {
    const { verdict, result } = parseGoogleSerp(readPage(google(file)), q);
    expect(verdict).toEqual({ kind: 'ok' });
    const links = (result?.serp_search_results ?? []).map((i) => ('link' in i ? i.link : ''));
    expect({ count: links.length, first: links[0] }).toEqual({ count, first });
    expect(links.every((l) => /^https?:\/\//.test(l))).toBe(true);
  });

  // An unknown layout simulated on every page: the fallback reader alone must still find the results, in order.
  it('fallback alone, classes and ids stripped: >= 99 % of results, >= 95 % of pages complete in order', () => {
    const f = fallbackAloneScore(root ?? '', 'classes');
    expect(f.found / f.results).toBeGreaterThanOrEqual(0.99);
    expect(f.complete / f.pages).toBeGreaterThanOrEqual(0.95);
  }, 60_000);

  it('fallback alone, headings stripped as well: >= 95 % of results', () => {
    const f = fallbackAloneScore(root ?? '', 'headings');
    expect(f.found / f.results).toBeGreaterThanOrEqual(0.95);
  }, 60_000);
});
