import { describe, expect, it } from '@jest/globals';
import { bodyOf, parseHtml } from '../dom.js';
import { cleanDocument } from './clean.js';
import { renderText } from '../text.js';

/** The body text of `html` once cleaned with `options`. */
function cleanedText(html: string, options: Parameters<typeof cleanDocument>[1]): string {
  const doc = parseHtml(html);
  cleanDocument(doc, options);
  return renderText(bodyOf(doc));
}

describe('hidden nodes', () => {
  const page = `<html><body><main><h1>Widget 3000</h1><div role="tablist"><a role="tab" href="#d">Details</a><a role="tab" href="#s">Specs</a></div>
    <div role="tabpanel" id="d"><p>The details tab describes the widget.</p></div>
    <div role="tabpanel" id="s" hidden><p>The specs tab lists its weight and size.</p></div>
    <div hidden><p>A hidden notice nobody sees.</p></div>
    <div style="display:none" role="tabpanel"><p>The care tab says how to clean it.</p></div></main></body></html>`;

  it('keep the panels of tabs, which a reader opens by choosing the tab', () => {
    const text = cleanedText(page, { url: 'https://shop.example/p/1', aggressive: true });
    expect(text).toContain('The specs tab lists its weight and size.');
    expect(text).toContain('The care tab says how to clean it.');
    expect(text).not.toContain('A hidden notice');
  });
});

describe('collapsed answers', () => {
  it('keep the hidden answer right after a question, but not a hidden block after a statement', () => {
    const faq = (q: string, a: string): string => `<div class="item"><div class="q">${q}</div><div style="visibility:hidden" class="a"><p>${a}</p></div></div>`;
    const text = cleanedText(`<html><body><main><h1>Pet insurance</h1><p>Cover for vet bills, from accidents to illness, for cats and dogs of any age.</p>
      ${faq('What is pet insurance?', 'It pays back part of your vet bills after treatment.')}${faq('Can I insure an older dog?', 'Yes, there is no upper age limit.')}
      <div class="note">Prices shown include tax.</div><div style="display:none"><p>A promotion that has ended.</p></div></main></body></html>`, { url: 'https://insure.example/pets', aggressive: true });
    expect(text).toContain('It pays back part of your vet bills');
    expect(text).toContain('no upper age limit');
    expect(text).not.toContain('A promotion that has ended');
  });
});

describe('tab lists', () => {
  it('drop a strip of tabs, but keep an accordion built as a tab list with its panels', () => {
    const intro = '<p>Every plan comes with onboarding, daily backups, priority support and a named account manager for your team.</p>';
    const text = cleanedText(`<html><body><main><h1>Plans</h1>${intro}
      <div role="tablist"><a role="tab" href="#a">Monthly</a><a role="tab" href="#b">Yearly</a></div>
      <div class="accordion" role="tablist"><div role="tab"><button>Can I cancel?</button></div>
        <div role="tabpanel" class="collapse"><p>You can cancel at any time from your account.</p></div></div></main></body></html>`, { url: 'https://service.example/', aggressive: true });
    expect(text).not.toContain('Monthly');
    expect(text).toContain('You can cancel at any time');
  });

  it('keep an accordion built as a tab list whose panels its controls name, however their role is spelled', () => {
    const item = (i: number, q: string, a: string): string =>
      `<div class="panel"><div class="panel-heading" role="tab"><a role="button" aria-expanded="true" aria-controls="collapse-${i}" href="#collapse-${i}">${q}</a></div>` +
      `<div id="collapse-${i}" class="panel-collapse" role="tabpane-${i}"><p>${a}</p></div></div>`;
    const text = cleanedText(`<html><body><main><h1>Free course</h1><p>A short course on ledgers, with a certificate at the end of it for everyone who finishes.</p>
      <p>Six lessons cover how a shared ledger records a payment, who checks it, and what a contract on it can do.</p>
      <div class="panel-group" role="tablist">${item(1, 'Are there prerequisites?', 'None: anyone can enrol in the course.')}${item(2, 'Is it accredited?', 'Yes, it counts for ten hours of training.')}</div>
      <div role="tablist"><a role="tab" href="#a">Overview</a><a role="tab" href="#b">Syllabus outline</a></div></main></body></html>`, { url: 'https://course.example/free', aggressive: true });
    expect(text).toContain('anyone can enrol in the course');
    expect(text).toContain('counts for ten hours');
    expect(text).not.toContain('Syllabus outline');
  });
});

describe('collapsed disclosures', () => {
  it('keep what an accordion control (with aria-expanded, or a button) opens, and drop hidden nodes no control opens', () => {
    const text = cleanedText(`<html><body><main><h2>Questions</h2>
      <button aria-expanded="false" aria-controls="faq-1">How long does it take?</button>
      <div id="faq-1" hidden><p>Setup takes about a week.</p></div>
      <a href="#faq-2" aria-expanded="false" aria-controls="faq-2 faq-3">Is support included?</a>
      <div id="faq-2" aria-hidden="true"><p>Support is included for a year.</p></div>
      <div id="faq-3" style="display: none"><p>Renewal is optional.</p></div>
      <a role="button" tabindex="0" aria-controls="faq-4">Can I cancel?</a>
      <div id="faq-4" style="display:none" role="region"><p>You can cancel at any time.</p></div>
      <div id="upsell" hidden><p>A hidden upsell nobody opens.</p></div>
      <span aria-controls="menu">no aria-expanded</span><div id="menu" hidden><p>A hidden menu.</p></div></main></body></html>`, { url: 'https://agency.example/services', aggressive: true });
    expect(text).toContain('Setup takes about a week.');
    expect(text).toContain('Support is included for a year.');
    expect(text).toContain('Renewal is optional.');
    expect(text).toContain('You can cancel at any time.');
    expect(text).not.toContain('A hidden upsell');
    expect(text).not.toContain('A hidden menu');
  });

  it('keep the hidden collapse wrapper around the panel a control opens, and only such a wrapper', () => {
    const text = cleanedText(`<html><body><main><h2>Details</h2>
      <button aria-expanded="false" aria-controls="panel-1">Dimensions</button>
      <div class="kit-collapse" style="display:none;height:0px"><div role="region" id="panel-1"><p>Height: 39 cm, width: 62 cm.</p></div></div>
      <div class="kit-collapse" style="display:none"><div id="panel-1b"><p>A panel no control opens.</p></div><p>Beside it.</p></div></main></body></html>`, { url: 'https://shop.example/p/fire-pit', aggressive: true });
    expect(text).toContain('Height: 39 cm');
    expect(text).not.toContain('A panel no control opens');
  });

  it('drop a popover, which is not rendered until it is opened (an install prompt, a dropdown menu)', () => {
    const text = cleanedText(`<html><body><main><h1>Roadmap question</h1><p>Is there a public roadmap for the next releases of the builder?</p>
      <div id="install-prompt" popover><p>Add this forum to your home screen for push notifications and badges.</p></div>
      <ul popover="auto" id="theme-menu"><li>Light theme for the reader</li><li>Dark theme for the reader</li></ul></main></body></html>`, { url: 'https://forum.example/topic/1', aggressive: true });
    expect(text).toContain('Is there a public roadmap');
    expect(text).not.toContain('Add this forum to your home screen');
    expect(text).not.toContain('Dark theme for the reader');
  });
});

describe('Drupal node classes', () => {
  it('do not take a node promoted to the front page for sponsored content', () => {
    const text = cleanedText(`<html><body><div class="layout"><article class="node node--type-page node--promoted node--view-mode-full"><p>Our clinic offers counselling for adults.</p></article><div class="promoted-offer"><p>Sponsored: buy two, get one.</p></div><div class="contact"><p>Call us on weekdays between nine and five, or write to the front desk at any time of the year.</p></div></div></body></html>`, { url: 'https://clinic.example/services', aggressive: false });
    expect(text).toContain('Our clinic offers counselling');
    expect(text).not.toContain('Sponsored: buy two');
  });
  it('do not take a node a theme marks is-promoted for sponsored content', () => {
    const links = Array.from({ length: 12 }, (_, i) => `<li><a href="/topic/${i}">Safety topic number ${i}</a></li>`).join('');
    const doc = parseHtml(`<html><body><header><ul>${links}</ul></header><main><article class="topic-page is-promoted full"><div class="content">
      <p>Working near live circuits calls for lockout procedures and insulated tools at every step.</p>
      <p>Employers train every worker who may touch energized parts, and keep the training records.</p></div></article></main>
      <footer><p>An agency of the government. Contact us, find an office, read the accessibility statement.</p></footer></body></html>`);
    cleanDocument(doc, { url: 'https://agency.example/electrical', aggressive: false });
    expect(renderText(bodyOf(doc))).toContain('Working near live circuits');
  });
});

describe('Adobe Experience Manager components', () => {
  const cta = '<div class="cmp-cta"><p>Talk to an adviser about moving your pension before the tax year ends.</p></div>';

  it('keep a site-specific cmp- component on a page built of AEM core components', () => {
    const doc = parseHtml(`<html><body><div class="cmp-container"><div class="cmp-text"><p>Our pension plans grow with you: pay in monthly or once a year, and choose how boldly the fund invests.</p></div>${cta}</div></body></html>`);
    cleanDocument(doc, { url: 'https://bank.example/pensions', aggressive: true });
    expect(renderText(bodyOf(doc))).toContain('Talk to an adviser');
  });

  it('still read cmp- as a consent platform on a page without AEM core components', () => {
    const doc = parseHtml(`<html><body><main><p>Our pension plans grow with you: pay in monthly or once a year, and choose how boldly the fund invests.</p></main>${cta.replace(/Talk.*ends\./, 'We and our partners store cookies.')}</body></html>`);
    cleanDocument(doc, { url: 'https://bank.example/pensions', aggressive: true });
    const text = renderText(bodyOf(doc));
    expect(text).toContain('Our pension plans grow');
    expect(text).not.toContain('cookies');
  });
});

describe('forum poster details', () => {
  const post = (n: number): string => `<article class="message has-profile-rank">
      <div class="message-user"><span class="message-avatar">F</span><h4 class="message-name"><a class="username">felix${n}</a></h4>
        <h5 class="userTitle message-userTitle">Senior member</h5><div class="userBanner">Original poster</div>
        <dl class="message-userExtras"><dt>Joined</dt><dd>Apr 13, 2009</dd><dt>Messages</dt><dd>887</dd></dl>
        <dl class="postprofile"><dd class="profile-joined">Joined: 2011</dd><dd class="profile-posts">Posts: 4${n}</dd></dl></div>
      <div class="message-content"><p>Post ${n}: switching iCloud messages off did not free the space until the phone synced again.</p>
        <div class="post-signature">Sent from my phone, please excuse typos</div></div></article>`;
  const page = `<html><body><main>${[1, 2, 3].map(post).join('')}</main></body></html>`;

  it('drop rank, banner, join date, post count, avatar and signature, keep the name and the message', () => {
    const text = cleanedText(page, { url: 'https://forum.example/t/1', aggressive: true, keepComments: true });
    for (const n of [1, 2, 3]) expect(text).toContain(`felix${n}`);
    expect(text).toContain('Post 2: switching iCloud messages off');
    for (const gone of ['Senior member', 'Original poster', 'Joined', '887', 'Posts: 4', 'Sent from my phone']) expect(text).not.toContain(gone);
  });

  it('leave such class names alone outside forum threads', () => {
    const doc = parseHtml(page);
    cleanDocument(doc, { url: 'https://forum.example/t/1', aggressive: true });
    expect(renderText(bodyOf(doc))).toContain('Senior member');
  });
});

describe('teaser grids named after their ad slots', () => {
  const card = (i: number): string =>
    `<article class="article-card"><a href="/news/${i}"><h2 class="article-card__title">Headline number ${i} of the section</h2></a><p>Standfirst ${i}: two lines about the story.</p></article>`;

  it('keep a run of cards whose wrapper is named for the ads between them', () => {
    const doc = parseHtml(`<html><body><div class="topic-intro">${'<p>The section front opens with a paragraph about the topic, long enough to weigh something.</p>'.repeat(6)}</div><div class="container--section-more-ads"><section class="feed">${[1, 2, 3, 4].map(card).join('')}<div class="ad-slot"></div></section></div></body></html>`);
    cleanDocument(doc, { url: 'https://news.example/economy/', aggressive: true });
    const text = renderText(bodyOf(doc));
    expect(text).toContain('Headline number 4 of the section');
  });

  it('still drop an ad block of a single teaser and a sponsored grid', () => {
    const text = cleanedText(`<html><body><div class="ad-container">${card(1)}</div><div class="sponsored">${[2, 3, 4].map(card).join('')}</div><main>${'<p>The page\'s own text, a paragraph long enough to outweigh the grids around it.</p>'.repeat(8)}</main></body></html>`, { url: 'https://news.example/economy/', aggressive: true });
    expect(text).not.toContain('Headline number');
  });
});

describe('dialogs', () => {
  it('are dropped by the conservative cleaning too, unless they hold most of the page', () => {
    const text = cleanedText(`<html><body><section role="dialog" id="ensModalWrapper"><div class="ensModal"><p>Cookies are small data files that allow a website to collect and store data on your device.</p></div></section>
      <div aria-modal="true"><p>Sign up to our newsletter and get ten percent off your next order.</p></div>
      <div class="app"><h1>Retro light, set of four</h1><p>Four small lights, each the size of a phone, with a magnetic back and a dimmer that goes down to one percent.</p><p>The set ships with a charging case and a cable.</p></div></body></html>`, { url: 'https://shop.example/p/1', aggressive: false });
    expect(text).toContain('magnetic back');
    expect(text).not.toContain('Cookies are small data files');
    expect(text).not.toContain('newsletter');
    const only = parseHtml(`<html><body><div role="dialog"><p>A page that is nothing but its dialog: the text a reader gets.</p></div></body></html>`);
    cleanDocument(only, { url: 'https://shop.example/p/2', aggressive: false });
    expect(renderText(bodyOf(only))).toContain('nothing but its dialog');
  });
});

describe('screen-reader-only text', () => {
  it('drops labels only a screen reader reads, however the class is spelled', () => {
    const text = cleanedText(`<html><body><main><ul><li><span class="u-srOnly">Thread starter</span> <a href="/u/1">Ann</a></li><li><span class="sr-only">Start date</span> Jan 5, 2024</li></ul>
      <p>The lathe tailstock drifts off centre when it is locked, and I would like to know why it happens.</p></main></body></html>`, { url: 'https://forum.example/threads/tailstock.1/', aggressive: true });
    expect(text).toContain('The lathe tailstock drifts');
    expect(text).toContain('Ann');
    expect(text).not.toContain('Thread starter');
    expect(text).not.toContain('Start date');
  });
});

describe('nocontent', () => {
  it('drops what a site marks nocontent (not to be indexed as its content), in either mode', () => {
    const html = `<html><body><main><article><h1>Function calling</h1><p>Describe each function with a name, a purpose and its parameters, then pass the list with the request.</p>
      <div class="page-footer nocontent"><p>Except as otherwise noted, the content of this page is licensed under a Creative Commons licence.</p></div></article></main></body></html>`;
    for (const aggressive of [false, true]) {
      const doc = parseHtml(html);
      cleanDocument(doc, { url: 'https://docs.example/functions', aggressive });
      const text = renderText(bodyOf(doc));
      expect(text).toContain('Describe each function');
      expect(text).not.toContain('licensed under');
    }
  });
});

describe('entry headers', () => {
  it('keep the header of an <article> that holds its headline, whatever its class; drop the site header', () => {
    const entry = (i: number): string =>
      `<article class="excerpt"><div class="excerpt-thumb"><a href="/e/${i}"><img src="/e/${i}.jpg" alt=""></a></div>` +
      `<header class="excerpt-header"><h2><a href="/e/${i}">Entry number ${i} of the blog index</a></h2></header></article>`;
    const doc = parseHtml(`<html><body><header class="top-header"><a href="/">Home</a> <a href="/about">About the site</a></header><div class="posts">${[1, 2, 3].map(entry).join('')}</div></body></html>`);
    cleanDocument(doc, { url: 'https://blog.example/category/all/', aggressive: true });
    const text = renderText(bodyOf(doc));
    expect(text).toContain('Entry number 3 of the blog index');
    expect(text).not.toContain('About the site');
  });
});

describe('section headers', () => {
  it('keep the header of a section inside <main>, whatever its class; drop the site header outside it', () => {
    const section = (name: string): string =>
      `<section class="page-section"><div class="page-section__header"><h2>${name} for growing teams</h2><p>See how ${name.toLowerCase()} fits the way you work.</p></div>` +
      `<div class="page-section__body"><p>${name} comes with every plan, set up for you in a day, with support on call around the clock.</p></div></section>`;
    const doc = parseHtml(`<html><body><div class="site-header"><a href="/">Home</a> <a href="/pricing">Pricing plans</a></div><main>${['Scheduling', 'Invoicing', 'Reporting'].map(section).join('')}</main></body></html>`);
    cleanDocument(doc, { url: 'https://service.example/', aggressive: true });
    const text = renderText(bodyOf(doc));
    expect(text).toContain('Invoicing for growing teams');
    expect(text).toContain('See how reporting fits');
    expect(text).not.toContain('Pricing plans');
  });
});

describe('style modifiers that contain a chrome word', () => {
  it('keep an entry excerpt whose modifier asks for extra spacing', () => {
    const html = `<html><body><div class="card"><h3>Left-handed players win more</h3><div class="card__dek card__dek--extra-spacing">A study finds an edge in contests.</div></div>
      <div id="extra"><a href="/a">More from the site</a></div></body></html>`;
    const out = cleanedText(html, { url: 'https://news.example/', aggressive: true });
    expect(out).toContain('A study finds an edge');
    expect(out).not.toContain('More from the site');
  });
});

describe("a landing page's promos and banners", () => {
  const html = `<html><body><main><section class="hero"><h1>Cloud payroll</h1><p>Pay your team in minutes.</p></section><div class="promo-container"><h2>Payroll for agencies</h2><p>Run contractors and staff together, with one approval flow.</p></div><div class="cta-banner"><h2>Start today</h2><p>Your first month is on us, for every plan.</p></div></main></body></html>`;
  const cleaned = (landing: boolean): string => cleanedText(html, { url: 'https://payroll.example/', aggressive: true, landing });

  it('are sections of a service page', () => {
    expect(cleaned(true)).toContain('Run contractors and staff together');
    expect(cleaned(true)).toContain('Your first month is on us');
  });

  it('are chrome elsewhere', () => {
    expect(cleaned(false)).toContain('Pay your team in minutes.');
    expect(cleaned(false)).not.toContain('Run contractors and staff together');
    expect(cleaned(false)).not.toContain('Your first month is on us');
  });
});

describe('FAQ blocks named with a chrome word', () => {
  it("keep a CMS's FAQ widget and the FAQ's tab links; drop the other widgets", () => {
    const qa = (q: string, a: string): string => `<div class="faq_tabs-menu-link"><h3>${q}</h3><p>${a}</p></div>`;
    const html = `<html><body><main><h1>Building department</h1><p>Permits and inspections for homes and businesses in the city.</p>
      <section class="widget widgetFAQ"><h2>FAQs</h2>${qa('How do I obtain a permit?', 'Fill in the permit form and bring it to the office with the plans.')}${qa('When is an inspection needed?', 'Before any wall that hides wiring is closed.')}</section>
      <section class="widget widgetLinks"><a href="/a">Agendas</a> <a href="/m">Minutes of past meetings</a></section></main></body></html>`;
    const out = cleanedText(html, { url: 'https://city.example/building', aggressive: true });
    expect(out).toContain('Fill in the permit form');
    expect(out).toContain('Before any wall that hides wiring');
    expect(out).not.toContain('Minutes of past meetings');
  });
});
