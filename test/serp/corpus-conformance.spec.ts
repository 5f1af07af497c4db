/**
 * Conformance on the real-page corpus (../shared/corpus/serp). Skipped, with a message, when the corpus is absent.
 */
import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { detectVerdict, parseGoogleSerp } from '#serp';
import { createSearchProviders } from '#serp';
import {
  allPages, bingReferenceCases, corpusRoot, DUCKDUCKGO_PINNED_COUNTS, googleReferenceCases, readPage, serpSpiderCases, VERDICT_CASES,
} from '#bench/serp/conformance/corpus.js';
import { corpusPresent } from '#test/support/requires.js';
import { scoreReferenceCase, totalsBySource } from '#bench/serp/conformance/reference-score.js';
import { scoreSpiderCase } from '#bench/serp/conformance/serp-spider-score.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const root = corpusPresent(path.resolve(repoRoot, '../shared/corpus/serp'), 'serp corpus conformance') ? corpusRoot(repoRoot) : null;
const describeCorpus = root ? describe : describe.skip;
const corpus = root ?? '';

const engines = createSearchProviders({ googleBaseUrl: 'http://127.0.0.1:9/', bingBaseUrl: 'http://127.0.0.1:9/', duckduckgoBaseUrl: 'http://127.0.0.1:9/' });

describeCorpus('SERP corpus conformance', () => {
  it('Google 2023 desktop, mobile and no-JS: >= 95 % of reference organic results, related searches matched', () => {
    const scores = googleReferenceCases(corpus).map((c) => scoreReferenceCase(c, 'google')).filter((s) => s !== null);
    const totals = totalsBySource(scores);
    expect(totals.map((t) => t.source).sort()).toEqual(['google desktop-2023', 'google mobile-2023', 'google nojs-2023']);
    for (const t of totals) {
      expect({ source: t.source, rate: t.matched / t.total >= 0.95 }).toEqual({ source: t.source, rate: true });
      // related searches "where the reference has them"
      expect({ source: t.source, related: t.relatedMatched }).toEqual({ source: t.source, related: t.relatedTotal });
    }
  });

  it('Bing pages with reference parses: >= 95 % of organic results', () => {
    const [t] = totalsBySource(bingReferenceCases(corpus).map((c) => scoreReferenceCase(c, 'bing')).filter((s) => s !== null));
    expect(t.total).toBeGreaterThan(50);
    expect(t.matched / t.total).toBeGreaterThanOrEqual(0.95);
  });

  it('serp-spider pages: >= 90 % of asserted YAML fields', () => {
    const cases = serpSpiderCases(corpus);
    expect(cases.length).toBe(32);
    let asserted = 0;
    let passed = 0;
    for (const c of cases) {
      const s = scoreSpiderCase(c);
      asserted += s.asserted;
      passed += s.passed;
    }
    expect(asserted).toBeGreaterThan(500);
    expect(passed / asserted).toBeGreaterThanOrEqual(0.9);
  });

  it('DuckDuckGo: every organic result extracted (hand-counted, pinned)', () => {
    for (const [rel, count] of Object.entries(DUCKDUCKGO_PINNED_COUNTS)) {
      const page = engines.duckduckgo.parseSearchPage?.(readPage(path.join(corpus, 'duckduckgo', rel)), { query: '', page: 1 }).page;
      expect({ rel, count: page?.search_results.length }).toEqual({ rel, count });
      expect(page?.search_results.every((r) => r.title && /^https?:\/\//.test(r.link))).toBe(true);
    }
  });

  it('every no-results, captcha and block page is classified as such, never as an ok page', () => {
    for (const c of VERDICT_CASES) {
      expect({ file: c.file, kind: detectVerdict(c.engine, readPage(path.join(corpus, c.file))).kind }).toEqual({ file: c.file, kind: c.expect });
    }
  });

  it('never throws on any corpus page (Google pages also through every vertical parser, one page in three)', () => {
    const pages = allPages(corpus);
    // Every engine's pages are there (an empty or partial corpus must not pass this by having nothing to parse).
    expect(['google', 'bing', 'duckduckgo'].map((e) => pages.filter((p) => p.engine === e).length >= 10)).toEqual([true, true, true]);
    pages.forEach((p, i) => {
      const html = readPage(p.file);
      if (p.engine === 'google') {
        const types = i % 3 === 0 ? (['search', 'news', 'images', 'places', 'shopping'] as const) : (['search'] as const);
        for (const type of types) {
          expect(() => parseGoogleSerp(html, { type, page: 1, num: 10 })).not.toThrow();
        }
      } else {
        expect(() => engines[p.engine].parseSearchPage?.(html, { query: '', page: 1 })).not.toThrow();
      }
    });
  }, 120_000);
});
