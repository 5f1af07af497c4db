import { describe, expect, it } from '@jest/globals';
import { bodyOf, parseHtml, textContent } from './dom.js';

describe('parseHtml', () => {
  it('reads past a stray CDATA opener in the body, as a browser does', () => {
    const doc = parseHtml('<html><body><![CDATA[<div id="x"></div><p>First post of the thread.</p><p>A reply.</p></body></html>');
    const text = textContent(bodyOf(doc));
    expect(text).toContain('First post of the thread.');
    expect(text).toContain('A reply.');
  });

  it('reads past a stray CDATA opener that follows scripts and styles holding their own', () => {
    const doc = parseHtml(
      '<html><head><style>/*<![CDATA[*/ p { color: red } /*]]>*/</style></head><body><script>//<![CDATA[\nvar a = 1;\n//]]></script>' +
        '<![CDATA[<div id="x"></div><p>First post of the thread.</p><script>//<![CDATA[\nvar b = 2;\n//]]></script><p>A reply.</p></body></html>',
    );
    const text = textContent(bodyOf(doc));
    expect(text).toContain('First post of the thread.');
    expect(text).toContain('A reply.');
    expect(text).toContain('var b = 2;');
  });

  it('leaves CDATA inside scripts alone', () => {
    const doc = parseHtml('<html><body><script>//<![CDATA[\nvar a = 1 > 0;\n//]]></script><p>Body text.</p></body></html>');
    expect(textContent(bodyOf(doc))).toContain('var a = 1 > 0;');
    expect(textContent(bodyOf(doc))).toContain('Body text.');
  });
});
