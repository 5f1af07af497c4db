import { describe, expect, it } from '@jest/globals';
import { parseSearxngSearchPage } from '../searxng/searxng-provider.js';
import { buildSearchPage, searchPageFromSerp } from './search-page.js';

describe('/search page object', () => {
  it('has the enrichment keys only when they carry something; related queries de-duplicated', () => {
    const page = buildSearchPage({
      search_results: [], related_queries: ['a b', 'A  b', ''], questions_answers: [], sidebar: null, direct_answer: { answer: '' },
    });
    expect(page).toEqual({ total_results: '', search_results: [], related_queries: ['a b'] });
  });

  it('maps a /serp-search result (Google) onto it: answerBox, knowledgeGraph, places, peopleAlsoAsk', () => {
    const page = searchPageFromSerp({
      serp_search_results: [{ title: 'T', link: 'https://www.t.example/x', snippet: 's', position: 1, date: 'Apr 1, 2024' }],
      answerBox: { answer: '42', snippet: 'The answer is 42.', link: 'https://a.example/' },
      knowledgeGraph: { title: 'K', type: 'Thing', description: 'd', attributes: { Born: '1990' }, website: 'https://k.example/', descriptionSource: 'Wikipedia' },
      peopleAlsoAsk: [{ question: 'Why?', snippet: '', title: '', link: 'https://q.example/' }],
      places: [{ position: 1, title: 'Cafe', address: 'Main St 1', rating: 4.5 }],
      relatedSearches: [{ query: 'r' }],
      searchInformation: { totalResults: 1000 },
    });
    expect(page).toEqual({
      total_results: '1000',
      search_results: [{ title: 'T', link: 'https://www.t.example/x', date: 'Apr 1, 2024', snippet: 's', source: 't.example' }],
      related_queries: ['r'],
      questions_answers: [{ question: 'Why?', link: 'https://q.example/' }],
      sidebar: {
        title: 'K', type: 'Thing', description: 'd', attributes: { Born: '1990' }, link: 'https://k.example/', source: 'Wikipedia',
        local_results: [{ title: 'Cafe', address: 'Main St 1', rating: '4.5' }],
      },
      direct_answer: { answer: '42', snippet: 'The answer is 42.', source: 'a.example', link: 'https://a.example/' },
    });
  });

  it('SearXNG JSON: the same page object; no offset reported, a next page possible while results come', () => {
    const body = JSON.stringify({ results: [{ url: 'https://one.example/', title: 'One', content: 'First' }], answers: ['42'], suggestions: ['x y'] });
    expect(parseSearxngSearchPage(body, { page: 2 })).toEqual({
      verdict: { kind: 'ok' },
      page: {
        total_results: '', related_queries: ['x y'], direct_answer: { answer: '42' },
        search_results: [{ title: 'One', link: 'https://one.example/', date: null, snippet: 'First', source: 'one.example' }],
      },
      pagination: { offset: null, hasNext: true },
    });
    expect(parseSearxngSearchPage(JSON.stringify({ results: [] }), { page: 1 }).verdict).toEqual({ kind: 'no_results' });
  });
});
