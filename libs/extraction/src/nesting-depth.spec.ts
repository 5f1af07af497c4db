import { describe, expect, it } from '@jest/globals';
import { MAX_NESTING_DEPTH, nestingDepth } from './nesting-depth.js';

describe('nestingDepth', () => {
  it('counts element nesting, with implied closes and void elements not adding depth', () => {
    expect(nestingDepth('<html><body><p>a<p>b<p>c<br><img><ul><li>x<li>y</ul></body></html>')).toBe(4);
    expect(nestingDepth('<div><div><span>x</span></div></div><div></div>')).toBe(3);
    expect(nestingDepth('plain text')).toBe(0);
  });

  it('measures 100k unclosed nested elements without a tree, stopping just past the cap', () => {
    const deep = '<div>'.repeat(100_000);
    expect(nestingDepth(deep, MAX_NESTING_DEPTH)).toBe(MAX_NESTING_DEPTH + 1);
    expect(nestingDepth('<div>'.repeat(MAX_NESTING_DEPTH), MAX_NESTING_DEPTH)).toBe(MAX_NESTING_DEPTH);
  });
});
