// Capturing the rendered document (captureDocument, through the pool): the DOM as it is, whatever the page's own
// scripts override; a DOM past the element cap fails before it is serialized; a document swapped by a client-side
// navigation is captured once the new one is there.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ErrorCode } from '#contracts';
import { expectTrawlError as rejection } from '#test/support/trawl-error.js';
import { ChromiumPool } from './chromium-pool.js';
import { FixtureSite } from './testing/fixture-site.js';
import { renderExecutable } from './render-executable.js';

// The binary worker-render launches (the headless shell when installed).
const CHROMIUM = renderExecutable(undefined, '/usr/bin/chromium');

describe('ChromiumPool document capture', () => {
  const site = new FixtureSite();
  let pool: ChromiumPool;

  beforeAll(async () => {
    await site.start();
    site
      .page(
        '/doctype',
        `<!DOCTYPE html><html lang="en"><head><title>T</title></head><body><p id="p">static</p>
         <script>document.getElementById('p').insertAdjacentHTML('afterend', '<p id="added">by script</p>');</script></body></html>`,
      )
      // The page's world lies about its own HTML; the capture runs in a world of its own.
      .page(
        '/liar',
        `<!doctype html><html><body><p>the real text</p><script>
           Object.defineProperty(Element.prototype, 'outerHTML', { get() { return '<html>fake</html>'; } });
           XMLSerializer.prototype.serializeToString = () => 'fake';
           document.getElementsByTagName = () => ({ length: 0 });
         </script></body></html>`,
      )
      .page('/many', `<!doctype html><html><body><script>document.body.innerHTML = '<i></i>'.repeat(3000);</script></body></html>`)
      .page('/hop-after-load', `<!doctype html><html><body><p>first</p><script>addEventListener('load', () => location.replace('/second'));</script></body></html>`)
      .page('/second', '<!doctype html><html><body><p>second document</p></body></html>');
    pool = new ChromiumPool({ executablePath: CHROMIUM, maxContexts: 2, pagesPerBrowser: 100, allowPrivateAddresses: true, shareContexts: true, maxDomNodes: 1_000 });
  });

  afterAll(async () => {
    await pool?.close();
    await site.close();
  });

  const render = (path: string) => pool.render({ url: site.url(path), timeoutMs: 15_000, isolationKey: 'acct' });

  it('returns the doctype and the DOM as scripts left it', async () => {
    const { html } = await render('/doctype');
    expect(html.startsWith('<!DOCTYPE html><html lang="en">')).toBe(true);
    expect(html).toContain('<p id="added">by script</p>');
    expect(html.endsWith('</html>')).toBe(true);
  });

  it("is not fooled by the page's own overrides of outerHTML, XMLSerializer or getElementsByTagName", async () => {
    const { html } = await render('/liar');
    expect(html.startsWith('<!DOCTYPE html><html><head></head><body><p>the real text</p>')).toBe(true);
  });

  it('fails a document with more elements than the cap as TOO_LARGE', async () => {
    const error = await rejection(render('/many'));
    expect(error.code).toBe(ErrorCode.TOO_LARGE);
    expect(error.message).toMatch(/more than the 1000 allowed/);
  });

  it('captures the document a client-side navigation after load brought', async () => {
    const { html, finalUrl } = await render('/hop-after-load');
    expect(finalUrl).toBe(site.url('/second'));
    expect(html).toContain('second document');
  });
});
