import { describe, expect, it } from '@jest/globals';
import { vedKind } from '../google/google-features.js';
import { splitLeadingDate } from './dates.js';
import { normalizeUrl, unwrapBingLink, unwrapDuckDuckGoLink, unwrapGoogleLink } from './urls.js';

describe('unwrapGoogleLink', () => {
  it('unwraps /url?q= redirects to the target, decoding it once', () => {
    expect(unwrapGoogleLink('/url?q=https://fr.wikipedia.org/wiki/Liste_des_%25C3%25A9pisodes&sa=U&ved=0ah'))
      .toBe('https://fr.wikipedia.org/wiki/Liste_des_%C3%A9pisodes');
    expect(unwrapGoogleLink('https://www.google.com/url?url=https://example.com/a%3Fb%3D1&sa=t')).toBe('https://example.com/a?b=1');
  });

  it('keeps outside links and Google-hosted result pages, drops searches, ads and anchors', () => {
    expect(unwrapGoogleLink('https://example.com/x')).toBe('https://example.com/x');
    expect(unwrapGoogleLink('//example.com/x')).toBe('https://example.com/x');
    expect(unwrapGoogleLink('https://www.google.com/search/about/')).toBe('https://www.google.com/search/about/');
    expect(unwrapGoogleLink('/search?q=coffee&sa=X')).toBe('');
    expect(unwrapGoogleLink('https://www.google.com/aclk?sa=l&ai=x')).toBe('');
    expect(unwrapGoogleLink('#')).toBe('');
    expect(unwrapGoogleLink('/url?q=/search%3Fq%3Dx')).toBe('');
  });
});

describe('other engines and normalisation', () => {
  it('decodes Bing ck/a links and DuckDuckGo uddg links', () => {
    const target = 'https://example.com/page?x=1';
    const u = `a1${Buffer.from(target).toString('base64').replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')}`;
    expect(unwrapBingLink(`https://www.bing.com/ck/a?!&&p=abc&u=${u}&ntb=1`)).toBe(target);
    expect(unwrapDuckDuckGoLink(`//duckduckgo.com/l/?uddg=${encodeURIComponent(target)}&rut=x`)).toBe(target);
  });

  it('treats scheme, www, trailing slash and fragment as the same page', () => {
    expect(normalizeUrl('https://www.Example.com/a/#top')).toBe(normalizeUrl('http://example.com/a'));
    expect(normalizeUrl('https://example.com/a')).not.toBe(normalizeUrl('https://example.com/b'));
  });
});

describe('dates and click ids', () => {
  it('splits the leading date Google prints before a snippet', () => {
    expect(splitLeadingDate('Apr 9, 2022 — Verisign plans to raise prices')).toEqual({ date: 'Apr 9, 2022', rest: 'Verisign plans to raise prices' });
    expect(splitLeadingDate('2 days ago — New research')).toEqual({ date: '2 days ago', rest: 'New research' });
    expect(splitLeadingDate('Search the world’s information')).toEqual({ rest: 'Search the world’s information' });
  });

  it('reads the element kind from ved click ids of 2018 and 2023 pages', () => {
    expect(vedKind('2ahUKEwj9xtaS7rLeAhVLaBoKHTjEC3MQ1QIoAHoECAoQAQ')).toBe(341); // related search, 2018
    expect(vedKind('0ahUKEwjNnq_Y-ofcAhXLVRQKHXU8D_o4ChDVAgh4KAA')).toBe(341); // related search, old encoding
    expect(vedKind('2ahUKEwif-5Gr1rv-AhXPad4KHeFNBssQFnoECAwQAQ')).toBe(22); // organic result
    expect(vedKind('garbage')).toBeUndefined();
  });
});
