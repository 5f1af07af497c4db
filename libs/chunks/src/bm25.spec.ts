import { describe, expect, it } from '@jest/globals';
import { bm25Scores } from './bm25.js';
import { analyze } from './terms.js';

// Reference values from an independent implementation of the same formulas (k1 1.2, b 0.75, IDF ln(1 + (N-df+.5)/(df+.5))).
const docs = [{ text: 'cat dog cat' }, { text: 'dog fish' }, { text: 'bird bird bird fish cat' }, { text: 'mouse' }];

describe('bm25Scores', () => {
  it('gives the Okapi BM25 scores of a known example (text only)', () => {
    const scores = bm25Scores(docs, 'cat fish', { headingWeight: 0 });
    expect(scores[0]).toBeCloseTo(0.9293164415263532, 12);
    expect(scores[1]).toBeCloseTo(0.7801935706767756, 12);
    expect(scores[2]).toBeCloseTo(1.0386477875882774, 12);
    expect(scores[3]).toBe(0);
  });

  it('counts heading terms with the heading weight (BM25F): a section named for the query rises', () => {
    const withHeadings = docs.map((d, i) => ({ ...d, headings: i === 0 ? ['Fish'] : [] }));
    const scores = bm25Scores(withHeadings, 'cat fish', { headingWeight: 2 });
    expect(scores[0]).toBeCloseTo(1.2536498021153313, 12);
    expect(scores[1]).toBeCloseTo(0.42327399986090236, 12);
    expect(scores[2]).toBeCloseTo(0.860312686551925, 12);
    expect(bm25Scores(withHeadings, 'cat fish', { headingWeight: 0 })).toEqual(bm25Scores(docs, 'cat fish', { headingWeight: 0 }));
  });

  it('scores 0 everywhere for a query of stop words only, or with no documents', () => {
    expect(bm25Scores(docs, 'the and of')).toEqual([0, 0, 0, 0]);
    expect(bm25Scores([], 'cat')).toEqual([]);
  });

  it('counts a repeated query term once', () => {
    expect(bm25Scores(docs, 'cat cat fish')).toEqual(bm25Scores(docs, 'cat fish'));
  });
});

describe('analyze', () => {
  it('folds case and accents, drops stop words, stems Latin words and cuts CJK runs into bigrams', () => {
    expect(analyze('The Installation of café packages, installing 3 items')).toEqual(['instal', 'cafe', 'packag', 'instal', '3', 'item']);
    expect(analyze('東京タワー')).toEqual(['東京', '京タ', 'タワ', 'ワー']);
    expect(analyze('running', false)).toEqual(['running']);
    expect(analyze(`x ${'a'.repeat(41)} y2`)).toEqual(['y2']);
  });
});
