/** The fixture site the Firecrawl tests read: an article, a guide in sections, a 404, pages echoing headers, and a crawlable tree. */
import type { ServerResponse } from 'node:http';
import { ARTICLE, html, startFixtureServer, type FixtureServer, type Route } from '../support/fixture-server.js';

/** Pages of the crawlable tree under /tree/ (more than two status answers of 100 documents). */
export const TREE_PAGES = 230;

const send = (res: ServerResponse, body: string, status = 200) => void res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);

export const SCOPED = html(
  `<nav><a href="/a">Home</a> <a href="/pricing">Pricing</a></nav>
   <main><article><h1>Scoped article</h1><p>The first paragraph of a scoped article, long enough to be its main content.</p>
   <p class="promo">Subscribe to the newsletter.</p><p>The second paragraph of the scoped article, with more words in it.</p>
   <img src="/img/figure.png" alt="figure"></article></main>
   <aside id="side"><p>Sidebar words outside the article.</p></aside>`,
  'Scoped page',
);

/** A guide in sections: the highlights format picks the ones a query is about. */
export const GUIDE = html(
  `<main><article><h1>A guide to fishing gear</h1>
   <h2>Nets</h2><p>A trawl net is a cone of netting towed behind a boat; its mesh size decides which fish escape and which are kept in the cod end.</p>
   <h2>Harbours</h2><p>Most small harbours charge a mooring fee by the night, and the harbour master keeps a list of free berths for visiting crews.</p>
   <h2>Weather</h2><p>Crews watch the shipping forecast before leaving: a gale warning keeps the smaller boats in port until the wind drops.</p></article></main>`,
  'Fishing gear',
);

export async function startSite(): Promise<FixtureServer> {
  const routes: Record<string, Route> = {
    '/article': (_req, res) => send(res, ARTICLE),
    '/scoped': (_req, res) => send(res, SCOPED),
    '/guide': (_req, res) => send(res, GUIDE),
    '/missing': (_req, res) => send(res, html('<h1>Gone</h1><p>This page does not exist any more.</p>', 'Not here'), 404),
    '/echo': (req, res) => send(res, html(`<h1>Echo</h1><p>token=${String(req.headers['x-token'] ?? 'none')}</p><p>agent=${String(req.headers['user-agent'])}</p>`, 'Echo')),
    '/tree/': (_req, res) => send(res, html(`<h1>Tree</h1>${Array.from({ length: TREE_PAGES - 1 }, (_, i) => `<a href="/tree/p${i + 1}">p${i + 1}</a>`).join(' ')}`, 'Tree')),
  };
  for (let i = 1; i < TREE_PAGES; i++) {
    routes[`/tree/p${i}`] = (_req, res) => send(res, html(`<h1>Tree page ${i}</h1><p>Words of tree page number ${i}, enough to be content.</p><a href="/tree/">up</a>`, `Tree ${i}`));
  }
  return startFixtureServer(routes);
}
