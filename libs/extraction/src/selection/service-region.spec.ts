import { describe, expect, it } from '@jest/globals';
import { formatPage } from '../index.js';

const TEXT = { raw_html: false, enhanced_html: false, markdown: false, page_text: true };

describe('a service page whose pick is most, not all, of its <main> region', () => {
  // The hero (a heading and a tagline, no sentence) is an eighth of the region; the pick is the feature section.
  const card = (i: number): string =>
    `<div class="card"><h3>Feature ${i}</h3><p>Feature ${i} keeps every project on track, with reminders, owners, and due dates for the team.</p></div>`;
  const html = `<html><head><title>Planner</title></head><body><main><div class="hero"><h2>One planner for every team</h2><p>Plan, build and ship together with one tool for every project and every deadline</p></div><section class="features"><div class="grid">${[1, 2, 3, 4, 5, 6].map(card).join('')}</div></section></main></body></html>`;

  it('widens to the region, hero included', () => {
    const out = formatPage(html, { url: 'https://planner.example/', formats: TEXT });
    expect(out.metadata).toMatchObject({ pageType: 'service' });
    expect(out.page_text).toContain('Feature 6 keeps every project');
    expect(out.page_text).toContain('Plan, build and ship together');
  });

  it('reads a locale prefix in the path as the edition, not as depth', () => {
    const out = formatPage(html, { url: 'https://planner.example/en-us/products/planner/', formats: TEXT });
    expect(out.metadata).toMatchObject({ pageType: 'service' });
    expect(out.page_text).toContain('Plan, build and ship together');
  });
});

describe('a service page whose pick is its prose overview', () => {
  // The overview holds five paragraphs of prose, three quarters of the region; the dates and the testimonials beside
  // it hold short lines that no paragraph scoring picks.
  const para = (i: number): string =>
    `<p>Week ${i} of the course covers layout, type and colour, with a brief, a critique from a tutor, and a project for the portfolio that graduates show to studios.</p>`;
  const html =
    `<html><head><title>Design course</title></head><body><main><section class="overview"><h2>What you learn</h2>${[1, 2, 3, 4, 5].map(para).join('')}</section>` +
    `<section class="dates"><h2>Next start dates</h2><ul><li>12 January to 10 April</li><li>27 April to 31 July</li></ul></section>` +
    `<section class="quotes"><h2>From our graduates</h2><blockquote>Best decision of my career</blockquote></section></main></body></html>`;

  it('widens to the region, dates and quotes included', () => {
    const out = formatPage(html, { url: 'https://school.example/design-course', formats: TEXT });
    expect(out.metadata).toMatchObject({ pageType: 'service' });
    expect(out.page_text).toContain('Week 5 of the course');
    expect(out.page_text).toContain('27 April to 31 July');
    expect(out.page_text).toContain('Best decision of my career');
  });
});
