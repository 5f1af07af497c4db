/**
 * Corpus regression tests: the page_text F1 on the Zyte article-extraction-benchmark (shingles), on the trafilatura
 * evaluation corpus (segments) and on the WCXB development split (macro word F1) must not fall more than 0.01 below the
 * figures recorded here (measured with bench/extraction/score.ts), and on WCXB the Markdown's text must score as
 * page_text does. Skipped when ../shared/corpus is absent; with CI=true its absence fails the run.
 */
import { describe, expect, it } from '@jest/globals';
import { formatPage, markdownToText } from '#extraction';
import { corpusRoot, loadTrafilatura, loadWcxb, loadZyte } from '#bench/extraction/scoring/corpus.js';
import { aggregateSegments, aggregateShingles, aggregateWords, segmentCounts, shingleScore, wordScore, type PageWordScore } from '#bench/extraction/scoring/metrics.js';
import { REPO_ROOT } from './support/env.js';
import { corpusAbsent } from './support/requires.js';

const RECORDED_ZYTE_F1 = 0.972;
const RECORDED_TRAFILATURA_F1 = 0.932;
const RECORDED_WCXB_F1 = 0.882;
const TEXT_ONLY = { raw_html: false, enhanced_html: false, markdown: false, page_text: true };
const root = corpusRoot(REPO_ROOT);
const pages = loadZyte(root);

describe('extraction quality on the Zyte corpus', () => {
  if (!pages) {
    corpusAbsent(`${root}/zyte-article-extraction-benchmark`, 'extraction quality on the Zyte corpus');
    it.skip('skipped: ../shared/corpus/extraction/zyte-article-extraction-benchmark is absent', () => undefined);
    return;
  }
  it(`keeps page_text shingle F1 within 0.01 of ${RECORDED_ZYTE_F1}`, () => {
    const scores = pages.map((p) =>
      shingleScore(p.truth, formatPage(p.html, { url: p.url, formats: TEXT_ONLY }).page_text ?? ''),
    );
    const { f1 } = aggregateShingles(scores);
    expect(f1).toBeGreaterThanOrEqual(RECORDED_ZYTE_F1 - 0.01);
  }, 120_000);
});

describe('extraction quality on the trafilatura evaluation corpus', () => {
  const evalPages = loadTrafilatura(root);
  if (!evalPages) {
    corpusAbsent(`${root}/trafilatura-eval`, 'extraction quality on the trafilatura evaluation corpus');
    it.skip('skipped: ../shared/corpus/extraction/trafilatura-eval is absent', () => undefined);
    return;
  }
  it(`keeps page_text segment F1 within 0.01 of ${RECORDED_TRAFILATURA_F1}`, () => {
    const counts = evalPages.map((p) => segmentCounts(formatPage(p.html, { url: p.url, formats: TEXT_ONLY }).page_text ?? '', p.with, p.without));
    expect(aggregateSegments(counts).f1).toBeGreaterThanOrEqual(RECORDED_TRAFILATURA_F1 - 0.01);
  }, 300_000);
});

describe('extraction quality on the WCXB development split', () => {
  const wcxb = loadWcxb(root);
  if (!wcxb) {
    corpusAbsent(`${root}/wcxb-dev`, 'extraction quality on WCXB');
    it.skip('skipped: ../shared/corpus/extraction/wcxb-dev is absent', () => undefined);
    return;
  }
  it(`keeps page_text macro word F1 within 0.01 of ${RECORDED_WCXB_F1}, and the Markdown's text within 0.005 of it`, () => {
    const text: PageWordScore[] = [];
    const markdown: PageWordScore[] = [];
    for (const p of wcxb) {
      const page = formatPage(p.html, { url: p.url, formats: { ...TEXT_ONLY, markdown: true } });
      text.push(wordScore(p.truth, page.page_text ?? ''));
      markdown.push(wordScore(p.truth, markdownToText(page.markdown ?? '')));
    }
    const textF1 = aggregateWords(text).f1;
    expect(textF1).toBeGreaterThanOrEqual(RECORDED_WCXB_F1 - 0.01);
    // Converting to Markdown loses no content: its text scores as page_text does (0.853 against 0.854 when pinned).
    expect(aggregateWords(markdown).f1).toBeGreaterThanOrEqual(textF1 - 0.005);
  }, 300_000);
});
