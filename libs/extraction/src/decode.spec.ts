import { describe, expect, it } from '@jest/globals';
import { decodeHtml } from './decode.js';

const bytes = (...parts: (string | number[])[]): Uint8Array =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

describe('decodeHtml', () => {
  it('uses the Content-Type charset', () => {
    const r = decodeHtml(bytes('<p>caf', [0xe9], '</p>'), 'text/html; charset=ISO-8859-1');
    expect(r.text).toBe('<p>café</p>');
    expect(r.charset).toBe('windows-1252');
  });

  it('sniffs <meta charset> and http-equiv', () => {
    expect(decodeHtml(bytes('<meta charset="shift_jis"><p>', [0x93, 0xfa, 0x96, 0x7b], '</p>')).text).toContain('日本');
    const r = decodeHtml(bytes('<meta http-equiv="Content-Type" content="text/html; charset=euc-kr"><p>', [0xc7, 0xd1], '</p>'));
    expect(r.text).toContain('한');
    expect(r.charset).toBe('euc-kr');
  });

  it('lets a BOM win over a wrong header', () => {
    const r = decodeHtml(bytes([0xef, 0xbb, 0xbf], '<p>', [0xc3, 0xa9], '</p>'), 'text/html; charset=iso-8859-1');
    expect(r.text).toBe('<p>é</p>');
  });

  it('defaults to UTF-8 and falls back to windows-1252 for undeclared invalid UTF-8', () => {
    expect(decodeHtml(bytes('<p>', [0xc3, 0xa9], '</p>')).text).toBe('<p>é</p>');
    const r = decodeHtml(bytes('<p>', [0xe9, 0x80], '</p>'));
    expect(r.text).toBe('<p>é€</p>');
    expect(r.charset).toBe('windows-1252');
  });

  it('ignores unknown labels and treats a <meta> UTF-16 claim as UTF-8', () => {
    expect(decodeHtml(bytes('<p>x</p>'), 'text/html; charset=bogus-42').text).toBe('<p>x</p>');
    expect(decodeHtml(bytes('<meta charset="utf-16"><p>', [0xc3, 0xa9], '</p>')).text).toContain('é');
  });
});
