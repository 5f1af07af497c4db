import { describe, expect, it } from '@jest/globals';
import { parseGoogleSerp } from './google-provider.js';

// Hand-made pages shaped like Google's vertical markup (the corpus has few vertical pages).
const NEWS = `<div id="main"><div id="rso">
 <div class="SoaBEf"><a class="WlydOe" href="https://news.example/a"><div class="iRPxbe">
   <div class="MgUUmf"><span>The Verge</span></div>
   <div class="n0jPhd" role="heading" aria-level="3">Google announces a thing</div>
   <div class="GI74Re">Google said on Monday that it will ship the thing next year.</div>
   <div class="OSrXXb"><span>3 hours ago</span></div></div>
   <div class="uhHOwf"><img src="https://img.example/a.jpg" width="92"></div></a></div>
 <div class="SoaBEf"><a class="WlydOe" href="/url?q=https://news.example/b&amp;sa=U"><div role="heading">Second story</div>
   <div>Reuters</div><div>Apr 2, 2023</div><div>A second story about the thing.</div></a></div>
</div></div>`;

const IMAGES = `<div id="main"><div id="rg">
 <div class="rg_di"><a class="rg_l" href="http://www.google.com/imgres?imgurl=https://cdn.example/full.jpg&amp;imgrefurl=https://www.site.example/page&amp;h=800&amp;w=1200&amp;tbnid=x">
   <img alt="A red apple" src="https://encrypted-tbn0.gstatic.com/images?q=tbn:abc"></a></div>
</div></div>`;

const PLACES = `<div id="main"><div id="rl_ist0">
 <div class="VkpGBb"><a class="rllt__link" data-cid="6594796727466431486" data-lat="37.77" data-lng="-122.41"><div class="rllt__details">
   <div role="heading"><span class="OSrXXb">Blue Bottle Coffee</span></div>
   <div><span aria-label="Rated 4.1 out of 5,">4.1</span><span>(1.2K)</span> · $$ · Coffee shop</div>
   <div>55 S Van Ness Ave · Open ⋅ Closes 5PM</div></div></a></div>
</div></div>`;

const SHOPPING = `<div id="main"><div id="rso"><div class="sh-dgr__content">
 <div class="ArOc1c"><img src="https://img.example/p.jpg"></div>
 <a class="xCpuod" href="/shopping/product/1234567890?q=dell"><h3 class="tAxDx">Dell XPS 13 Laptop</h3></a>
 <div><span class="a8Pemb">$999.00</span></div><div class="aULzUe">Best Buy</div><div class="vEjMR">Free delivery</div>
 <div><span aria-label="Rated 4.5 out of 5,">4.5</span><span class="QIrs8">(1,234)</span></div><div>Compare prices from 5+ stores</div>
</div></div></div>`;

describe('Google verticals', () => {
  it('news: title, link, snippet, date, source, image and position', () => {
    const { verdict, result } = parseGoogleSerp(NEWS, { type: 'news', page: 1, num: 10 });
    expect(verdict.kind).toBe('ok');
    expect(result?.serp_search_results).toEqual([
      { title: 'Google announces a thing', link: 'https://news.example/a', snippet: 'Google said on Monday that it will ship the thing next year.',
        date: '3 hours ago', source: 'The Verge', imageUrl: 'https://img.example/a.jpg', position: 1 },
      { title: 'Second story', link: 'https://news.example/b', snippet: 'A second story about the thing.', date: 'Apr 2, 2023', source: 'Reuters', position: 2 },
    ]);
  });

  it('images: full image, size, thumbnail, page link and domain from the imgres link', () => {
    const { result } = parseGoogleSerp(IMAGES, { type: 'images', page: 2, num: 10 });
    expect(result?.serp_search_results).toEqual([{
      title: 'A red apple', imageUrl: 'https://cdn.example/full.jpg', imageWidth: 1200, imageHeight: 800,
      thumbnailUrl: 'https://encrypted-tbn0.gstatic.com/images?q=tbn:abc', source: 'site.example', domain: 'www.site.example',
      link: 'https://www.site.example/page', position: 11,
    }]);
  });

  it('an Images page asked for as a web search (its form searches tbm=isch, or udm=2) is read as the Images vertical', () => {
    for (const field of ['<input type="hidden" name="tbm" value="isch">', '<input type="hidden" name="udm" value="2">']) {
      const page = `<html><body><form action="/search"><input name="q" value="red apple">${field}</form>${IMAGES}</body></html>`;
      const { verdict, result } = parseGoogleSerp(page, { type: 'search', page: 1, num: 10 });
      expect(verdict).toEqual({ kind: 'ok' });
      expect(result?.serp_search_results).toMatchObject([{ title: 'A red apple', link: 'https://www.site.example/page', position: 1 }]);
    }
    // The same grid on a page whose form searches the web is no Images page.
    const web = parseGoogleSerp(`<html><body><form action="/search"><input name="q" value="red apple"></form>${IMAGES}</body></html>`, { type: 'search', page: 1, num: 10 });
    expect(web.result?.serp_search_results).toEqual([]);
  });

  it('places: rating, count with K suffix, category, address, cid and coordinates', () => {
    const { result } = parseGoogleSerp(PLACES, { type: 'places', page: 1, num: 10 });
    expect(result?.serp_search_results).toEqual([{
      position: 1, title: 'Blue Bottle Coffee', rating: 4.1, ratingCount: 1200, category: 'Coffee shop',
      address: '55 S Van Ness Ave', cid: '6594796727466431486', latitude: 37.77, longitude: -122.41,
    }]);
  });

  it('shopping: price, store, delivery, rating, review count, offers and product id', () => {
    const { result } = parseGoogleSerp(SHOPPING, { type: 'shopping', page: 1, num: 10 });
    expect(result?.serp_search_results).toEqual([{
      title: 'Dell XPS 13 Laptop', source: 'Best Buy', link: 'https://www.google.com/shopping/product/1234567890?q=dell', price: '$999.00',
      delivery: 'Free delivery', rating: 4.5, ratingCount: 1234, offers: '5+', productId: '1234567890', imageUrl: 'https://img.example/p.jpg', position: 1,
    }]);
  });

  it('an empty vertical page is never "ok with zero items"', () => {
    const { verdict, result } = parseGoogleSerp('<div id="main"><p>Your search - x - did not match any news results.</p></div>', { type: 'news', page: 1, num: 10 });
    expect(verdict).toEqual({ kind: 'no_results' });
    expect(result).toBeUndefined();
  });
});
