import { describe, expect, it } from '@jest/globals';
import { charsetParam, decodeBody, sniffDeclaredCharset } from './charset.js';

// "café – “€”" in windows-1252: é=E9, en dash=96, curly quotes=93/94, euro=80 (not latin-1's C1 controls).
const CAFE_1252 = Buffer.concat([Buffer.from('caf', 'latin1'), Buffer.from([0xe9, 0x20, 0x96, 0x20, 0x93, 0x80, 0x94])]);
const CAFE_TEXT = 'café – “€”';
// "日本語" in Shift_JIS.
const NIHONGO_SJIS = Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]);

const html = (head: string, body: Buffer): Buffer =>
  Buffer.concat([Buffer.from(`<!doctype html><html><head>${head}<title>t</title></head><body><p>`), body, Buffer.from('</p></body></html>')]);

describe('decodeBody', () => {
  it('uses the Content-Type charset (windows-1252, and latin1 meaning windows-1252 as in browsers)', () => {
    expect(decodeBody(CAFE_1252, { contentType: 'text/html; charset=windows-1252' })).toEqual({ text: CAFE_TEXT, charset: 'windows-1252' });
    expect(decodeBody(CAFE_1252, { contentType: 'text/html; charset="ISO-8859-1"' })).toEqual({ text: CAFE_TEXT, charset: 'windows-1252' });
  });

  it('decodes shift_jis from the header and from a meta tag', () => {
    expect(decodeBody(NIHONGO_SJIS, { contentType: 'text/plain; charset=Shift_JIS' }).text).toBe('日本語');
    const page = html('<meta charset="shift_jis">', NIHONGO_SJIS);
    const decoded = decodeBody(page, { contentType: 'text/html' });
    expect(decoded.charset).toBe('shift_jis');
    expect(decoded.text).toContain('<p>日本語</p>');
  });

  it('finds the charset in an http-equiv meta and skips declarations inside comments', () => {
    const page = html('<!-- <meta charset="koi8-r"> --><meta http-equiv="Content-Type" content="text/html; charset=windows-1252">', CAFE_1252);
    const decoded = decodeBody(page, {});
    expect(decoded.charset).toBe('windows-1252');
    expect(decoded.text).toContain(CAFE_TEXT);
  });

  it('reads the XML declaration of XML documents', () => {
    const xml = Buffer.concat([Buffer.from('<?xml version="1.0" encoding="Shift_JIS"?><r>'), NIHONGO_SJIS, Buffer.from('</r>')]);
    expect(decodeBody(xml, { contentType: 'application/xml' }).text).toBe('<?xml version="1.0" encoding="Shift_JIS"?><r>日本語</r>');
  });

  it('prefers a byte-order mark over the header, and strips it', () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('naïve', 'utf8')]);
    expect(decodeBody(bom, { contentType: 'text/html; charset=windows-1252' })).toEqual({ text: 'naïve', charset: 'utf-8' });
  });

  it('falls back to UTF-8 on a bogus label instead of throwing', () => {
    const utf8 = Buffer.from('<p>naïve 日本</p>', 'utf8');
    expect(decodeBody(utf8, { contentType: 'text/html; charset=no-such-charset' })).toEqual({ text: '<p>naïve 日本</p>', charset: 'utf-8' });
    const page = html('<meta charset="x-bogus-123">', Buffer.from('naïve', 'utf8'));
    expect(decodeBody(page, {}).charset).toBe('utf-8');
  });

  it('ignores a bogus header label but still honours the document declaration', () => {
    const page = html('<meta charset="windows-1252">', CAFE_1252);
    expect(decodeBody(page, { contentType: 'text/html; charset=bogus' }).text).toContain(CAFE_TEXT);
  });

  it('treats an in-document utf-16 declaration as utf-8 (the HTML rule)', () => {
    const page = html('<meta charset="utf-16">', Buffer.from('naïve', 'utf8'));
    expect(decodeBody(page, {}).charset).toBe('utf-8');
  });

  it('does not sniff when told not to (JSON, plain text)', () => {
    const json = Buffer.from('{"html":"<meta charset=\\"shift_jis\\">","v":"ü"}', 'utf8');
    expect(decodeBody(json, { contentType: 'application/json', sniff: false })).toEqual({ text: json.toString('utf8'), charset: 'utf-8' });
  });

  it('replaces malformed bytes of a declared encoding instead of failing', () => {
    expect(decodeBody(Buffer.from([0x61, 0xff, 0x62]), { contentType: 'text/html; charset=utf-8' }).text).toBe('a\ufffdb');
  });

  it('reads undeclared bytes as UTF-8 when they are valid UTF-8, else as windows-1252 (as browsers do)', () => {
    expect(decodeBody(Buffer.from('<p>é</p>', 'utf8'), { contentType: 'text/html' })).toEqual({ text: '<p>é</p>', charset: 'utf-8' });
    expect(decodeBody(Buffer.from([0x56, 0x6f, 0x69, 0x6c, 0xe0, 0x20, 0x96]), { contentType: 'text/html' })).toEqual({ text: 'Voilà –', charset: 'windows-1252' });
  });
});

describe('charset helpers', () => {
  it('parses the charset parameter, quoted or not', () => {
    expect(charsetParam('text/html; charset=UTF-8')).toBe('UTF-8');
    expect(charsetParam('text/html;charset="euc-jp"; foo=bar')).toBe('euc-jp');
    expect(charsetParam('text/html')).toBeNull();
    expect(charsetParam(undefined)).toBeNull();
  });

  it('only looks at the first 4 KB', () => {
    const late = Buffer.concat([Buffer.from(`<html><head>${' '.repeat(5000)}`), Buffer.from('<meta charset="shift_jis">')]);
    expect(sniffDeclaredCharset(late)).toBeNull();
  });
});
