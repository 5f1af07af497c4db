import { describe, expect, it } from '@jest/globals';
import { crawlEndpoint, crawlParamsSchema, paramsJsonSchema, parseInput, TrawlError } from '#contracts';
import { singleUrlJsonSchema, singleUrlSchema } from './single-url.js';

const message = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(TrawlError);
    return (error as TrawlError).message;
  }
  throw new Error('expected a TrawlError');
};

describe('single-URL tool inputs over a urls endpoint', () => {
  const schema = singleUrlSchema(crawlParamsSchema(20));

  it('validates with the endpoint schema and hands the service its urls list', () => {
    expect(parseInput(schema, { url: 'https://a.example/#x', page_text: true })).toMatchObject({ urls: ['https://a.example/'], page_text: true, markdown: true });
  });

  it('names `url` in the endpoint’s own messages', () => {
    expect(message(() => parseInput(schema, {}))).toBe('url is required: one absolute http(s) URL');
    expect(message(() => parseInput(schema, { url: 'nope' }))).toMatch(/^url: "nope" is not a valid absolute URL/);
    expect(message(() => parseInput(schema, { url: 'https://a.example/', render_js: 'yes' }))).toMatch(/^render_js/);
  });

  it('describes one url instead of the list', () => {
    const json = singleUrlJsonSchema(paramsJsonSchema(crawlEndpoint, { crawlMaxUrls: 20, headfulMaxUrls: 10, crawlJobs: { maxPages: 100, maxBatchUrls: 100, maxConcurrency: 5 }, mapMaxLinks: 100, pageCacheMaxAgeS: 172_800 }));
    expect(json.required).toEqual(['url']);
    expect(Object.keys(json.properties as object)[0]).toBe('url');
    expect(json.properties).not.toHaveProperty('urls');
  });
});
