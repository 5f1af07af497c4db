import { describe, expect, it } from '@jest/globals';
import { parseJsonAnswer } from './json-answer.js';

describe('parseJsonAnswer', () => {
  it('reads plain JSON, a fenced block, and JSON inside a sentence', () => {
    expect(parseJsonAnswer(' {"a": 1} ')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJsonAnswer('```json\n{"a": [1, 2]}\n```')).toEqual({ ok: true, value: { a: [1, 2] } });
    expect(parseJsonAnswer('Here it is: {"a": "b"}. Hope that helps!')).toEqual({ ok: true, value: { a: 'b' } });
    expect(parseJsonAnswer('[{"a": 1}]')).toEqual({ ok: true, value: [{ a: 1 }] });
  });

  it('says why an answer is not JSON', () => {
    expect(parseJsonAnswer('')).toEqual({ ok: false, error: 'the answer is empty' });
    const cut = parseJsonAnswer('{"title": "A long answer cut at max_tok');
    expect(cut.ok).toBe(false);
    expect(!cut.ok && cut.error).toMatch(/^the answer is not valid JSON/);
  });
});
