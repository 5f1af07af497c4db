import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { countTokens } from '#chunks';
import { OpenAiCompatibleClient } from './openai-client.js';
import { LlmError } from './llm-error.js';
import { checkExtractRequest, PageLlm } from './page-llm.js';
import { answer, failure, startOpenAiFixture, type OpenAiFixture } from './testing/openai-fixture.js';

let fixture: OpenAiFixture;
let client: OpenAiCompatibleClient;

const page = {
  url: 'https://shop.example/kettle',
  title: 'Kettle',
  markdown: '# Steel kettle\n\nA 1.7 litre kettle.\n\n## Price\n\nIt costs 24.99 euros.',
};
const schema = {
  type: 'object',
  properties: { name: { type: 'string' }, price: { type: 'number' } },
  required: ['name', 'price'],
};

function llm(options: Partial<ConstructorParameters<typeof PageLlm>[0]> = {}): PageLlm {
  return new PageLlm({ client, contextTokens: 8192, timeoutMs: 5000, ...options });
}

async function failureOf(promise: Promise<unknown>): Promise<LlmError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LlmError);
  return error as LlmError;
}

const userMessage = (i: number) => fixture.requests[i].body.messages[1].content as string;

beforeAll(async () => {
  fixture = await startOpenAiFixture();
  client = new OpenAiCompatibleClient({ baseUrl: fixture.baseUrl, model: 'fixture-model' });
});
afterEach(() => {
  fixture.requests.length = 0;
});
afterAll(async () => {
  await client.close();
  await fixture.close();
});

describe('PageLlm.summarize', () => {
  it('sends the page fenced after the instructions and returns the summary with its usage', async () => {
    fixture.reply(answer('  A steel kettle for 24.99 euros.  ', { prompt: 150, completion: 9 }));
    const result = await llm().summarize(page, { prompt: 'the price', maxWords: 50 });
    expect(result).toEqual({ summary: 'A steel kettle for 24.99 euros.', usage: { prompt: 150, completion: 9 }, attempts: 1, pageTokens: countTokens(page.markdown), trimmed: false });
    const { messages, max_tokens } = fixture.requests[0].body;
    expect(messages[0]).toMatchObject({ role: 'system', content: expect.stringMatching(/at most 50 words[^]*the price/) });
    expect(userMessage(0)).toBe(`URL: ${page.url}\nTitle: Kettle\n\n<page>\n${page.markdown}\n</page>`);
    expect(max_tokens).toBe(50 * 3 + 64);
  });

  it('asks once more after an empty summary, then gives up with LLM_INVALID_OUTPUT', async () => {
    fixture.reply(answer('   '), answer(''));
    const e = await failureOf(llm().summarize(page));
    expect(e.code).toBe('LLM_INVALID_OUTPUT');
    expect(e.usage).toEqual({ prompt: 200, completion: 40 });
    expect(fixture.requests).toHaveLength(2);
  });
});

describe('PageLlm.extractJson', () => {
  it('returns the JSON when the first answer is valid against the schema', async () => {
    fixture.reply(answer('{"name":"Steel kettle","price":24.99}'));
    const result = await llm().extractJson(page, { schema, prompt: 'the product' });
    expect(result).toMatchObject({ json: { name: 'Steel kettle', price: 24.99 }, attempts: 1, trimmed: false });
    const body = fixture.requests[0].body;
    expect(body.response_format.json_schema.schema).toEqual(schema);
    expect(body.messages[0].content).toContain(JSON.stringify(schema));
  });

  it('retries once with the invalid answer and what was wrong with it, and adds up the usage', async () => {
    fixture.reply(answer('Sure! The kettle costs 24.99.', { prompt: 300, completion: 10 }), answer('```json\n{"name":"Steel kettle","price":24.99}\n```', { prompt: 340, completion: 15 }));
    const result = await llm().extractJson(page, { schema });
    expect(result).toMatchObject({ json: { name: 'Steel kettle', price: 24.99 }, attempts: 2, usage: { prompt: 640, completion: 25 } });
    const retry = fixture.requests[1].body.messages;
    expect(retry.slice(2)).toEqual([
      { role: 'assistant', content: 'Sure! The kettle costs 24.99.' },
      { role: 'user', content: expect.stringMatching(/^That answer is not valid: the answer is not valid JSON/) },
    ]);
  });

  it('gives LLM_INVALID_OUTPUT naming the schema errors after a second invalid answer', async () => {
    fixture.reply(answer('{"name":"Steel kettle"}'), answer('{"name":"Steel kettle","price":"cheap"}'));
    const e = await failureOf(llm().extractJson(page, { schema }));
    expect(e.code).toBe('LLM_INVALID_OUTPUT');
    expect(e.message).toMatch(/invalid twice: \/price must be number/);
    expect(fixture.requests[1].body.messages[3].content).toMatch(/must have required property 'price'/);
  });

  it('wants a JSON object when there is only a prompt', async () => {
    fixture.reply(answer('"just a string"'), answer('{"price": 24.99}'));
    const result = await llm().extractJson(page, { prompt: 'the price' });
    expect(result).toMatchObject({ json: { price: 24.99 }, attempts: 2 });
    expect(fixture.requests[0].body.response_format).toBeUndefined();
  });

  it('refuses a bad schema or request before anything is sent', async () => {
    expect((await failureOf(llm().extractJson(page, { schema: { type: 'nope' } }))).code).toBe('LLM_INVALID_SCHEMA');
    expect(() => checkExtractRequest({})).toThrow(/schema, a prompt, or both/);
    expect(() => checkExtractRequest({ prompt: 'x'.repeat(5000) })).toThrow(/longer than 4000/);
    expect(() => checkExtractRequest({ prompt: '   ' })).toThrow(/non-empty/);
    expect(fixture.requests).toHaveLength(0);
  });

  it('takes a request checked at the edge without checking it again', async () => {
    const checked = checkExtractRequest({ schema, prompt: 'the product' });
    fixture.reply(answer('{"name":"K","price":1}'));
    expect((await llm().extractJson(page, checked)).json).toEqual({ name: 'K', price: 1 });
  });

  it('trims a page longer than the context to the chunks about the schema, and says so', async () => {
    const filler = Array.from({ length: 300 }, (_, i) => `## Review ${i}\n\nA customer wrote a long review number ${i} about tea, cups and mornings.`).join('\n\n');
    const long = { ...page, markdown: `${filler}\n\n## Price\n\nThe price is 24.99 euros.\n\n${filler}` };
    fixture.reply(answer('{"name":"Steel kettle","price":24.99}'));
    const result = await llm({ contextTokens: 4096, extractMaxTokens: 1024 }).extractJson(long, { schema });
    expect(result.trimmed).toBe(true);
    const sent = userMessage(0);
    expect(sent).toContain('The price is 24.99 euros.');
    expect(sent).toContain('[…]');
    expect(result.pageTokens).toBeLessThan(4096 - 1024);
    expect(countTokens(fixture.requests[0].body.messages.map((m: { content: string }) => m.content).join('\n'))).toBeLessThan(4096 - 1024);
  });

  it('refuses to call when the context leaves no room for the page', async () => {
    const e = await failureOf(llm({ contextTokens: 2048, extractMaxTokens: 2000 }).extractJson(page, { schema }));
    expect(e.code).toBe('LLM_REJECTED');
    expect(fixture.requests).toHaveLength(0);
  });

  it('ends within its time limit when the server never answers, whatever the attempt', async () => {
    fixture.reply(answer('not json'), { hang: true });
    const e = await failureOf(llm({ timeoutMs: 400 }).extractJson(page, { schema }));
    expect(e.code).toBe('LLM_TIMEOUT');
    expect(fixture.requests).toHaveLength(2);
  });

  it('passes on the endpoint failing', async () => {
    fixture.reply(failure(500, 'CUDA out of memory'));
    const e = await failureOf(llm().extractJson(page, { schema }));
    expect([e.code, e.kind]).toEqual(['LLM_UNAVAILABLE', 'transient']);
    expect(e.message).toMatch(/HTTP 500\): CUDA out of memory/);
  });
});
