/**
 * Corpus regression test: the Zyte article-extraction-benchmark F1 of page_text must not fall more than 0.01
 * below the figure recorded here (measured with bench/extraction/score.ts). Skips when ../shared/corpus is absent.
 */
import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatPage } from '../format-page.js';
import { corpusRoot, loadZyte } from './corpus.js';
import { aggregateShingles, shingleScore } from './metrics.js';

const RECORDED_ZYTE_F1 = 0.972;
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const pages = loadZyte(corpusRoot(repoRoot));

describe('extraction quality on the Zyte corpus', () => {
  if (!pages) {
    it.skip('skipped: ../shared/corpus/extraction/zyte-article-extraction-benchmark is absent', () => undefined);
    return;
  }
  it(`keeps page_text shingle F1 within 0.01 of ${RECORDED_ZYTE_F1}`, () => {
    const scores = pages.map((p) =>
      shingleScore(p.truth, formatPage(p.html, { url: p.url, formats: { raw_html: false, enhanced_html: false, markdown: false, page_text: true } }).page_text ?? ''),
    );
    const { f1 } = aggregateShingles(scores);
    expect(f1).toBeGreaterThanOrEqual(RECORDED_ZYTE_F1 - 0.01);
  }, 120_000);
});
