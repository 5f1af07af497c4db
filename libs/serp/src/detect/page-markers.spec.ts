import { describe, expect, it } from '@jest/globals';
import { pageVerdict, statesNoResultsByShape } from './page-markers.js';

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
