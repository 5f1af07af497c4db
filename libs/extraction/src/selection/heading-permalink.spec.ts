import { describe, expect, it } from '@jest/globals';
import { formatPage } from '../format-page.js';

const TEXT = { raw_html: false, enhanced_html: false, markdown: true, page_text: true };

describe('headings that link to themselves', () => {
  it('keeps a heading whose text is its own permalink, as docs write them', () => {
    const html = `<html><head><title>WebSocket - Web APIs</title></head><body><main><article><h1>WebSocket</h1>
      <p>The WebSocket object provides the API for creating and managing a WebSocket connection to a server, as well as for sending and receiving data on the connection.</p>
      <section aria-labelledby="instance_properties"><h2 id="instance_properties"><a class="heading-anchor" href="#instance_properties">Instance properties</a></h2>
      <p>The binary data type used by the connection, which can be changed at any time, and the number of bytes still queued.</p></section>
      <section aria-labelledby="examples"><h2 id="examples"><a class="heading-anchor" href="#examples">Examples</a></h2>
      <p>Open a connection and send a message once it is open, then log every message the server sends back to the console.</p></section></article></main></body></html>`;
    const out = formatPage(html, { url: 'https://developer.example/docs/Web/API/WebSocket', formats: TEXT });
    expect(out.page_text).toContain('Instance properties');
    expect(out.page_text).toContain('Examples');
    expect(out.markdown).toContain('## Examples');
  });

  it('still drops a heading that is a link to elsewhere, or to another place in the page', () => {
    const html = `<html><head><title>Turning off the LEDs</title></head><body><main><article><h1>Turning off the LEDs</h1>
      <p>The board keeps its power light on even when idle; a setting in the firmware configuration turns it off for good.</p>
      <p>After a reboot the activity light stays dark as well, which suits a machine that sits in a bedroom at night.</p>
      <h3><a href="#p2">Re: Turning off the LEDs</a></h3>
      <h3><a href="/forum/other-topic">Read our other guides</a></h3></article></main></body></html>`;
    const out = formatPage(html, { url: 'https://board.example/viewtopic?t=1', formats: TEXT });
    expect(out.page_text).toContain('firmware configuration');
    expect(out.page_text).not.toContain('Re: Turning off');
    expect(out.page_text).not.toContain('Read our other guides');
  });
});
