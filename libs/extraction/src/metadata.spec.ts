import { describe, expect, it } from '@jest/globals';
import { descriptionFromContent, extractMetadata, titleFromTitleTag, unescapeHtmlEntities } from './metadata.js';
import { cleanByline, findByline } from './byline.js';
import { bodyOf, parseHtml } from './dom.js';

const page = (head: string, body = ''): string => `<html><head>${head}</head><body>${body}</body></html>`;
const meta = (head: string, body = '', url = 'https://news.example/a'): ReturnType<typeof extractMetadata> => extractMetadata(page(head, body), url);

describe('extractMetadata', () => {
  it('reads JSON-LD, Open Graph, <html lang> and canonical link', () => {
    const html = `<html lang="de"><head><title>Der Titel | Zeitung</title>
      <meta property="og:site_name" content="Zeitung"><meta name="description" content="Kurz gesagt.">
      <link rel="canonical" href="/artikel/1">
      <script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","headline":"Der Titel","datePublished":"2024-03-01T10:00:00Z","author":[{"@type":"Person","name":"Ada Muster"}]}</script>
      </head><body><p>x</p></body></html>`;
    expect(extractMetadata(html, 'https://zeitung.example/a?b=1')).toEqual({
      title: 'Der Titel',
      description: 'Kurz gesagt.',
      language: 'de',
      canonicalUrl: 'https://zeitung.example/artikel/1',
      publishedDate: '2024-03-01T10:00:00Z',
      author: 'Ada Muster',
      siteName: 'Zeitung',
    });
  });

  it('falls back to meta tags, <time> and the <title> without the site suffix', () => {
    const html = `<html><head><title>How we rebuilt the search index - Example Blog</title><meta name="author" content="By Jo Doe">
      <meta property="article:published_time" content="2023-05-06"></head><body><time datetime="2020-01-01">x</time></body></html>`;
    const m = extractMetadata(html, 'https://e.example/');
    expect(m.title).toBe('How we rebuilt the search index');
    expect(m.author).toBe('Jo Doe');
    expect(m.publishedDate).toBe('2023-05-06');
  });

  it('returns an empty object for empty or broken input', () => {
    expect(extractMetadata('', 'https://e.example/')).toEqual({});
    expect(extractMetadata('<script type="application/ld+json">{broken</script>', 'x')).toEqual({});
  });
});

describe('title', () => {
  it('keeps the whole <title> when cutting the site name would leave 4 words or fewer', () => {
    expect(titleFromTitleTag('Mozilla - Wikipedia')).toBe('Mozilla - Wikipedia');
    expect(titleFromTitleTag('Google - Site Reliability Engineering')).toBe('Google - Site Reliability Engineering');
  });

  it('accepts a short cut when a heading on the page confirms it', () => {
    expect(titleFromTitleTag('Ear Candy! | Novalanalove', () => ['Ear Candy!'])).toBe('Ear Candy!');
    expect(meta('<title>Gaspreise | Verbraucherverein</title>', '<h1>Gaspreise</h1>').title).toBe('Gaspreise');
  });

  it('treats a no-break space beside the separator as a space', () => {
    expect(titleFromTitleTag('Woher kommt die dicke Luft?\u00a0- Demokratie')).toBe('Woher kommt die dicke Luft?');
  });

  it('keeps a colon title that a heading repeats, else takes the part after the colon', () => {
    const title = 'Superbugs: What They Are and How You Get Them';
    expect(titleFromTitleTag(title, () => [title])).toBe(title);
    expect(titleFromTitleTag(title)).toBe('What They Are and How You Get Them');
  });

  it('uses the only <h1> when the <title> is very short, but not a short <h1>', () => {
    const longH1 = 'How the city rebuilt its harbour after the storm';
    expect(titleFromTitleTag('Home', undefined, () => [longH1])).toBe(longH1);
    expect(titleFromTitleTag('RTL Test', undefined, () => ['Lorem'])).toBe('RTL Test');
  });

  it('picks the JSON-LD headline or name by which one matches the page title', () => {
    const ld = (o: object): string => `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', ...o })}</script>`;
    // Wikipedia: headline is a tagline, name the article.
    expect(meta(`<title>New Zealand - Wikipedia</title>${ld({ '@type': 'Article', name: 'New Zealand', headline: 'island country in Oceania' })}`).title).toBe('New Zealand');
    // The site's name in name, the article in headline.
    const wochenblatt = ld({ '@type': 'Article', name: 'Wochenblatt für Landwirtschaft', headline: 'Heinen-Esser offen für Prämie' });
    expect(meta(`<title>Heinen-Esser offen für Prämie | Wochenblatt für Landwirtschaft</title>${wochenblatt}`).title).toBe('Heinen-Esser offen für Prämie');
  });

  it('reads Dublin Core in the name="DC.Title" form, after Open Graph', () => {
    expect(meta('<title>draft-04 - remoteStorage</title><meta name="DC.Title" content="remoteStorage">').title).toBe('remoteStorage');
    expect(meta('<meta name="DC.title" content="Pressemeldungen"><meta property="og:title" content="Eva gewählt">').title).toBe('Eva gewählt');
  });

  it('keeps no-break and ideographic spaces but collapses markup whitespace', () => {
    expect(meta('<meta property="og:title" content="Screenshot&#160;: «Vape Wave»">').title).toBe('Screenshot\u00a0: «Vape Wave»');
    expect(meta('<meta property="og:title" content="欲張りなイヌ　＜童話集＞">').title).toBe('欲張りなイヌ　＜童話集＞');
    expect(meta('<meta property="og:title" content="  A\n   headline  ">').title).toBe('A headline');
  });
});

describe('HTML entities left after parsing', () => {
  it('decodes double-escaped <meta> content once more', () => {
    expect(meta('<meta name="description" content="That&amp;#039;s &amp;quot;it&amp;quot;">').description).toBe('That\'s "it"');
    expect(meta('<meta property="og:title" content="Fish &amp;amp; Chips">').title).toBe('Fish & Chips');
  });

  it('turns invalid code points into U+FFFD and leaves malformed references alone', () => {
    expect(unescapeHtmlEntities('&#xg; &#x1F62D; &#128557; &#xFFFFFFFF; &#x0;')).toBe('&#xg; 😭 😭 \ufffd \ufffd');
  });
});

describe('description', () => {
  it('follows the og → description → twitter precedence', () => {
    const head = '<meta name="twitter:description" content="T"><meta name="description" content="D"><meta property="og:description" content="O">';
    expect(meta(head).description).toBe('O');
  });

  it('tidies spaces and blank lines but keeps the line breaks of the text', () => {
    expect(meta('<meta name="description" content="  + Added X  blocks\n\n\n   + Added Y  ">').description).toBe('+ Added X blocks\n+ Added Y');
  });
});

describe('descriptionFromContent', () => {
  const content = (html: string): ReturnType<typeof descriptionFromContent> => descriptionFromContent([bodyOf(parseHtml(`<body>${html}</body>`))]);

  it('takes the first paragraph with text, whitespace collapsed', () => {
    expect(content('<h1>Title</h1><p> </p><p>First\n   paragraph.</p><p>Second.</p>')).toBe('First paragraph.');
  });

  it('reads inline text directly in a div as a paragraph, up to a double <br>', () => {
    expect(content('<article><h2>Lorem</h2><div>Lorem <b>ipsum</b>\n dolor.<p>Later.</p></div></article>')).toBe('Lorem ipsum dolor.');
    expect(content('<div>Lorem ipsum<br><br>dolor sit</div>')).toBe('Lorem ipsum');
  });

  it('skips hidden blocks and returns undefined when there is no paragraph', () => {
    expect(content('<div hidden><p>Hidden.</p></div><p>Shown.</p>')).toBe('Shown.');
    expect(content('<ul><li>only a list</li></ul>')).toBeUndefined();
  });
});

describe('author', () => {
  it('finds the byline by rel=author, itemprop=author or a byline class, in document order', () => {
    expect(meta('', '<article><a rel="author" href="/u/jo">Jo Doe</a><p>Text</p></article>').author).toBe('Jo Doe');
    expect(meta('', '<div class="byline">By Ana Roe | 3 min read</div>').author).toBe('Ana Roe');
    expect(meta('', '<span class="author-info">Posted by <b>Kim Lee</b><br>March 3, 2024</span>').author).toBe('Kim Lee');
  });

  it('takes the itemprop=name inside a schema.org author block', () => {
    const html = '<div itemprop="author" itemscope><span class="byText">por </span><span itemprop="name">César Salza</span> — @cs</div>';
    expect(meta('', html).author).toBe('César Salza');
  });

  it('skips hidden bylines and those in comments and sidebars', () => {
    const body =
      '<div style="display:none" class="byline">Hidden Person</div>' +
      '<aside class="sidebar"><span class="author">Teaser Author</span></aside>' +
      '<div class="comments"><span class="comment-author">A Commenter</span></div>' +
      '<header class="entry-header"><span class="byline">Real Author</span></header>';
    expect(meta('', body).author).toBe('Real Author');
  });

  it('falls back to rel=author anywhere but in comments when the walk finds nothing', () => {
    const body = '<div class="post-footer"><a rel="author" href="/u">Andrew Z</a></div><div id="comments"><a rel="author">Troll</a></div>';
    expect(meta('', body).author).toBe('Andrew Z');
  });

  it('moves past a dateline to the author element inside or after it', () => {
    expect(meta('', '<div class="dateline">April 28, 2019 at 6:01 am</div><div class="byline">By Ben Romano</div>').author).toBe('Ben Romano');
    const wp = '<div class="entry-meta-author">Veröffentlicht am <time>13. März 2019</time> von <span class="author">Michael Veeser</span></div>';
    expect(meta('', wp).author).toBe('Michael Veeser');
  });

  it('prefers declared authors to the markup, and article:author only when it is a name', () => {
    expect(meta('<meta name="author" content="Meta Name">', '<div class="byline">By Dom Name</div>').author).toBe('Meta Name');
    expect(meta('<meta property="article:author" content="https://social.example/jo">', '<div class="byline">By Dom Name</div>').author).toBe('Dom Name');
    expect(meta('<meta property="og:article:author" content="BBC News">').author).toBe('BBC News');
  });

  it('demotes a declared author that is the site itself when a person is named', () => {
    const head = '<meta property="og:site_name" content="Technology Review"><meta name="DC.creator" content="heise online"><meta name="author" content="Denis Dilba">';
    expect(meta(head, '', 'https://www.heise.example/a').author).toBe('Denis Dilba');
    expect(meta('<meta name="author" content="www.haufe.example">', '<div class="byline">Von Jana Berg</div>', 'https://www.haufe.example/x').author).toBe('Jana Berg');
    // Nothing better: the site's name is still an answer.
    expect(meta('<meta name="author" content="BBC News">', '', 'https://www.bbc.example/news/1').author).toBe('BBC News');
  });

  it('resolves a JSON-LD author given as an @id reference, after the <meta> authors', () => {
    const graph = {
      '@context': 'https://schema.org',
      '@graph': [
        { '@type': 'Article', headline: 'H', author: { '@id': 'https://e.example/#/person/1' } },
        { '@type': 'Person', '@id': 'https://e.example/#/person/1', name: 'Dennis Z' },
      ],
    };
    const ld = `<script type="application/ld+json">${JSON.stringify(graph)}</script>`;
    expect(meta(ld).author).toBe('Dennis Z');
    expect(meta(`${ld}<meta name="parsely-author" content="Jessica Holly">`).author).toBe('Jessica Holly');
  });
});

describe('cleanByline', () => {
  it('strips lead-ins in several languages', () => {
    expect(cleanByline('By\n\t\t\tScott Cunningham')).toBe('Scott Cunningham');
    expect(cleanByline('Par Sébastien Farcis')).toBe('Sébastien Farcis');
    expect(cleanByline('View all posts by Daniel Lemire')).toBe('Daniel Lemire');
    expect(cleanByline('Veröffentlicht von Henning Lobin')).toBe('Henning Lobin');
    expect(cleanByline('Autor/in: Korinna Hennig')).toBe('Korinna Hennig');
    expect(cleanByline('作者：')).toBeUndefined();
  });

  it('keeps name particles and co-authors', () => {
    expect(cleanByline('Ursula von der Leyen')).toBe('Ursula von der Leyen');
    expect(cleanByline('Lisa Kaczke and Trevor J. Mitchell')).toBe('Lisa Kaczke and Trevor J. Mitchell');
    expect(cleanByline('Jong, Michiel de')).toBe('Jong, Michiel de');
  });

  it('cuts dates, reading times, handles and roles after the name', () => {
    expect(cleanByline('by Lucas Nolan22 Dec 2016651')).toBe('Lucas Nolan');
    expect(cleanByline('Bryan DeArdo @BryanDeArdo Nov 18, 2019 at 9:24 pm ET • 2 min read')).toBe('Bryan DeArdo');
    expect(cleanByline('Written by Rob Ewaschuk\n   Edited by Betsy Beyer')).toBe('Rob Ewaschuk');
    expect(cleanByline('MORITZ GATHMANN am 21. Mai 2020')).toBe('MORITZ GATHMANN');
    expect(cleanByline('Jane Doe - Staff Writer')).toBe('Jane Doe');
    expect(cleanByline('Matthias Hille - Lukas Balbach', true)).toBe('Matthias Hille - Lukas Balbach');
  });

  it('keeps digits that are part of a handle', () => {
    expect(cleanByline('freeman1984')).toBe('freeman1984');
  });

  it('rejects datelines and button labels', () => {
    expect(cleanByline('April 28, 2019 at 6:01 am Updated April 29, 2019')).toBeUndefined();
    expect(cleanByline('Last Updated: January 7, 2025')).toBeUndefined();
    expect(cleanByline('21.dez.2018 às 10h55')).toBeUndefined();
    expect(cleanByline('Follow Author')).toBeUndefined();
    expect(cleanByline('By')).toBeUndefined();
  });
});

describe('findByline', () => {
  it('returns undefined for a page without any author markup', () => {
    expect(findByline(parseHtml('<body><p class="lead">No author here.</p></body>'))).toBeUndefined();
  });
});
