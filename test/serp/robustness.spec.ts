/**
 * The parsers on pages they were not tuned for, simulated on the dev corpus (bench/serp/conformance/robustness.ts):
 * every page with an expectation perturbed as other years and markets differ — class names and ids renamed or
 * stripped, wrapper elements added, links behind the engine's redirect, labels and messages in a language the parsers
 * carry no strings for — must still give every result of the intact page, in order, and never come out blocked; the
 * no-results and block pages must keep their verdict. Skipped, with a message, when the corpus is absent.
 */
import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BING_PINNED_PAGES, corpusRoot, readPage } from '#bench/serp/conformance/corpus.js';
import { parseAs, robustnessReport, verdictRobustness } from '#bench/serp/conformance/robustness.js';
import { corpusPresent } from '#test/support/requires.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const root = corpusPresent(path.resolve(repoRoot, '../shared/corpus/serp'), 'SERP robustness') ? corpusRoot(repoRoot) : null;
const describeCorpus = root ? describe : describe.skip;
const corpus = root ?? '';

describeCorpus('SERP parsers on perturbed dev pages', () => {
  it.each(BING_PINNED_PAGES)('Bing %s: %i organic results, first and last in place', (file, count, first, last) => {
    const { verdict, titles } = parseAs('bing', readPage(path.join(corpus, 'bing', file)));
    expect({ kind: verdict.kind, count: titles.length, first: titles[0], last: titles.at(-1) }).toEqual({ kind: 'ok', count, first, last });
  });

  it('every engine: >= 97 % of perturbed pages complete in order, none reported blocked', () => {
    const rows = robustnessReport(corpus);
    for (const engine of ['google', 'bing', 'duckduckgo'] as const) {
      const rs = rows.filter((r) => r.engine === engine && r.perturbation !== 'intact');
      const complete = rs.reduce((n, r) => n + r.complete, 0);
      const pages = rs.reduce((n, r) => n + r.pages, 0);
      expect({ engine, blocked: rs.reduce((n, r) => n + r.blocked, 0) }).toEqual({ engine, blocked: 0 });
      expect(complete / pages).toBeGreaterThanOrEqual(0.97);
      // Class names renamed or gone (a new build of the engine's CSS) must not lose a page on any engine.
      for (const p of ['renamed', 'stripped'] as const) {
        const r = rs.find((x) => x.perturbation === p);
        expect({ engine, p, complete: r?.complete }).toEqual({ engine, p, complete: r?.pages });
      }
    }
  }, 120_000);

  it('stress, titles without heading tags: floors that must not fall (Google 76/111, Bing 14/15, DuckDuckGo 8/8)', () => {
    const rows = robustnessReport(corpus, ['headingless']).filter((r) => r.perturbation !== 'intact');
    const complete = Object.fromEntries(rows.map((r) => [r.engine, r.complete]));
    expect(complete.google).toBeGreaterThanOrEqual(76);
    expect(complete.bing).toBeGreaterThanOrEqual(14);
    expect(complete.duckduckgo).toBe(8);
    expect(rows.every((r) => r.blocked === 0)).toBe(true);
  }, 120_000);

  it('no-results and block pages keep their verdict: all of them intact, wrapped or redirected; most translated', () => {
    const byPerturbation = Object.fromEntries(verdictRobustness(corpus).map((v) => [v.perturbation, v]));
    for (const p of ['intact', 'wrapped', 'redirected'] as const) expect(byPerturbation[p].kept).toBe(byPerturbation[p].cases);
    expect(byPerturbation.renamed.kept).toBeGreaterThanOrEqual(16);
    expect(byPerturbation.translated.kept).toBeGreaterThanOrEqual(14);
    expect(byPerturbation.all.kept).toBeGreaterThanOrEqual(13);
    // Every captcha stays a block, whatever the perturbation.
    for (const v of Object.values(byPerturbation)) expect(v.misses.filter((m) => m.includes('expected blocked'))).toEqual([]);
  }, 120_000);
});
