import { describe, expect, it } from '@jest/globals';
import { AD_WORDS_ALL_RE, CHROME_RE, COMMENT_CHROME_RE, JUNK_RE, PROTECTED_BODY_RE, STRONG_CONTENT_RE } from './vocabulary.js';

describe('the class-word vocabulary', () => {
  it('scores as a strong vote every spelling of an article body, BEM and prefixed ones too', () => {
    for (const name of ['articleBody', 'entry-content', 'post_body', 'article__body', 'c-article-body', 'story-content', 'body-text', 'content-body']) {
      expect(STRONG_CONTENT_RE.test(name.toLowerCase())).toBe(true);
    }
  });
  it('protects from cleaning by the narrower list of body names', () => {
    expect(PROTECTED_BODY_RE.test('entry-content')).toBe(true);
    expect(PROTECTED_BODY_RE.test('body-text')).toBe(false);
  });
  it('counts comment sections among the chrome words', () => {
    expect(COMMENT_CHROME_RE.test('comment-list')).toBe(true);
    expect(CHROME_RE.test('comment-list')).toBe(true);
  });
  it('leaves no junk word in a name once its ad words are taken out, when ads were all it said', () => {
    const words = 'section section--ads ad-slot';
    expect(JUNK_RE.test(words)).toBe(true);
    expect(JUNK_RE.test(words.replace(AD_WORDS_ALL_RE, ' '))).toBe(false);
  });
});
