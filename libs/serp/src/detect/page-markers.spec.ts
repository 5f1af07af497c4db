import { describe, expect, it } from '@jest/globals';
import { announcesRewrittenQuery, pageVerdict, statesNoResultsByShape } from './page-markers.js';

const page = (body: string, q = 'zzqx kettle') =>
  `<html><head><title>${q} - Sök på Google</title></head><body><form><input name="q" value="${q}"></form>${body}</body></html>`;

describe('no-results statement by its shape', () => {
  it('recognises the query in emphasis on a page without result URLs, in a language we carry no sentence for', () => {
    const html = page('<div><p>Din sökning - <span><em>zzqx kettle</em></span> - matchade inga dokument.</p><ul><li>Förslag</li></ul></div>');
    expect(statesNoResultsByShape(html)).toBe(true);
    expect(pageVerdict('google', html, 0)).toEqual({ kind: 'no_results' });
    expect(pageVerdict('bing', page('<ol><li><h1>Inga resultat för <strong>zzqx kettle</strong></h1></li></ol>'), 0)).toEqual({ kind: 'no_results' });
  });

  it('wins over a consent dialog laid over the page, not over a captcha', () => {
    const statement = '<p>Din sökning - <em>zzqx kettle</em> - matchade inga dokument.</p>';
    const consent = '<div role="dialog"><h1>Innan du fortsätter till Google</h1></div>';
    expect(pageVerdict('google', page(statement + consent), 0)).toEqual({ kind: 'no_results' });
    expect(pageVerdict('google', page(`${statement}<form action="/sorry/index"></form>`), 0)).toEqual({ kind: 'blocked', reason: 'captcha' });
  });

  it('does not take a result page (bold query under result URLs) or a page without the query for an empty one', () => {
    expect(statesNoResultsByShape(page('<div><h3>Kettles</h3><cite>shop.example</cite><span><b>zzqx kettle</b> for sale</span></div>'))).toBe(false);
    expect(statesNoResultsByShape(page('<p>Något gick fel.</p>'))).toBe(false);
    // The query repeated in emphasis many times is a list of results, not a statement.
    expect(statesNoResultsByShape(page('<b>zzqx kettle</b>'.repeat(5)))).toBe(false);
    expect(pageVerdict('bing', page('<p>Något gick fel.</p>'), 0)).toEqual({ kind: 'blocked', reason: 'unknown' });
  });
});

describe('"no results for Q — results for Q′" by its shape', () => {
  const q = '"zzqx kettle"';
  const tabs = '<div><a href="/search?q=%22zzqx+kettle%22&amp;tbm=isch">Bilder</a></div>';
  const result = '<div class="r"><a href="https://shop.example/kettle">Kettles</a><cite>shop.example</cite></div>';
  const withNotice = (notice: string) => page(`${tabs}${notice}${result}`, q.replace(/"/g, '&quot;'));

  it('a line stating the query, then a link to a search for the same words loosened, before the first result', () => {
    const notice = '<div>Inga träffar för <b>&quot;zzqx kettle&quot;</b>.</div><div>Visar träffar för <a href="/search?q=zzqx+kettle">zzqx kettle</a>:</div>';
    expect(announcesRewrittenQuery(withNotice(notice), 'https://shop.example/kettle')).toBe(true);
    expect(pageVerdict('google', withNotice(notice), 1, undefined, { firstResult: 'https://shop.example/kettle', markup: withNotice(notice) })).toEqual({ kind: 'no_results' });
    // Plain text too (Bing), and a rewrite that splits a word.
    const split = page(`${tabs}<h2>Inga träffar för zzqxkettle.</h2><div>Visar träffar för <a href="/search?q=zzqx+kettle&amp;FORM=AWRE">zzqx kettle</a>.</div>${result}`, 'zzqxkettle');
    expect(announcesRewrittenQuery(split, 'https://shop.example/kettle')).toBe(true);
  });

  it('not a spelling correction, a suggestion, the tabs, or a notice after the first result', () => {
    const first = 'https://shop.example/kettle';
    // Other letters: a correction ("Showing results for …, search instead for <original link>").
    const corrected = '<div>Visar träffar för <a href="/search?q=zzqx+kettles">zzqx kettles</a>. Sök i stället efter <a href="/search?q=%22zzqx+kettle%22&amp;nfpr=1">&quot;zzqx kettle&quot;</a></div>';
    expect(announcesRewrittenQuery(withNotice(corrected), first)).toBe(false);
    // The query only as a link, never stated as text.
    const linkOnly = '<div><a href="/search?q=%22zzqx+kettle%22">&quot;zzqx kettle&quot;</a> <a href="/search?q=zzqx+kettle">zzqx kettle</a></div>';
    expect(announcesRewrittenQuery(withNotice(linkOnly), first)).toBe(false);
    // A related search for the loosened query after the results.
    const after = page(`${tabs}${result}<div>Sökningar om <b>&quot;zzqx kettle&quot;</b></div><div><a href="/search?q=zzqx+kettle">zzqx kettle</a></div>`, q.replace(/"/g, '&quot;'));
    expect(announcesRewrittenQuery(after, first)).toBe(false);
    expect(pageVerdict('google', withNotice(''), 1, undefined, { firstResult: first, markup: withNotice('') })).toEqual({ kind: 'ok' });
  });

  it("DuckDuckGo's empty list by its closing line on a page without results, whatever its classes", () => {
    const ddg = (list: string) => `<html><body><div class="x1"><div class="x2">${list}</div></div></body></html>`;
    expect(pageVerdict('duckduckgo', ddg('<div class="x3"><div>No more results.</div></div>'), 0)).toEqual({ kind: 'no_results' });
    expect(pageVerdict('duckduckgo', ddg(''), 0)).toEqual({ kind: 'blocked', reason: 'unknown' });
  });
});
