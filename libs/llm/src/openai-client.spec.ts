import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenAiCompatibleClient } from './openai-client.js';
import { LlmError } from './llm-error.js';
import { answer, failure, startOpenAiFixture, type OpenAiFixture } from './testing/openai-fixture.js';
import type { CompletionRequest } from './llm-client.js';

let fixture: OpenAiFixture;
const clients: OpenAiCompatibleClient[] = [];

function client(options: Partial<ConstructorParameters<typeof OpenAiCompatibleClient>[0]> = {}): OpenAiCompatibleClient {
  const c = new OpenAiCompatibleClient({ baseUrl: fixture.baseUrl, model: 'fixture-model', ...options });
  clients.push(c);
  return c;
}

const ask = (extra: Partial<CompletionRequest> = {}): CompletionRequest => ({
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Hello' },
  ],
  maxTokens: 50,
  timeoutMs: 5000,
  ...extra,
});

const schema = { name: 'extraction', schema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] } };

async function failureOf(promise: Promise<unknown>): Promise<LlmError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LlmError);
  return error as LlmError;
}

beforeAll(async () => {
  fixture = await startOpenAiFixture();
});
afterEach(() => {
  fixture.requests.length = 0;
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await fixture.close();
});

describe('OpenAiCompatibleClient', () => {
  it('posts a chat completion to <baseUrl>/chat/completions and returns the text and the server usage', async () => {
    fixture.reply(answer('Hi there.', { prompt: 12, completion: 3 }));
    const result = await client({ apiKey: 'sk-test' }).complete(ask());
    expect(result).toEqual({ text: 'Hi there.', usage: { prompt: 12, completion: 3 }, finishReason: 'stop', structured: undefined });
    const [request] = fixture.requests;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer sk-test');
    expect(request.body).toMatchObject({ model: 'fixture-model', max_tokens: 50, temperature: 0, stream: false, messages: ask().messages });
    expect(request.body.response_format).toBeUndefined();
  });

  it('asks for JSON through response_format json_schema when given a schema', async () => {
    fixture.reply(answer('{"title":"x"}'));
    const result = await client().complete(ask({ jsonSchema: schema }));
    expect(result.structured).toBe('json_schema');
    expect(fixture.requests[0].body.response_format).toEqual({ type: 'json_schema', json_schema: { ...schema, strict: false } });
    expect(fixture.requests[0].headers.authorization).toBeUndefined();
  });

  it('asks again without response_format when the server refuses it, and remembers', async () => {
    const c = client();
    fixture.reply(failure(400, "Unrecognized request argument supplied: response_format"), answer('{"title":"x"}'), answer('{"title":"y"}'));
    expect((await c.complete(ask({ jsonSchema: schema }))).structured).toBe('instructions');
    expect((await c.complete(ask({ jsonSchema: schema }))).text).toBe('{"title":"y"}');
    expect(fixture.requests.map((r) => r.body.response_format?.type ?? null)).toEqual(['json_schema', null, null]);
  });

  it('speaks the dialect of newer OpenAI models: max_completion_tokens, no temperature, learnt from their refusals', async () => {
    const c = client();
    fixture.reply(
      failure(400, "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."),
      failure(400, "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported."),
      answer('Hi.'),
      answer('Again.'),
    );
    expect((await c.complete(ask())).text).toBe('Hi.');
    expect((await c.complete(ask())).text).toBe('Again.');
    const sent = fixture.requests.map(({ body }) => [body.max_tokens ?? null, body.max_completion_tokens ?? null, body.temperature ?? null]);
    expect(sent).toEqual([
      [50, null, 0],
      [null, 50, 0],
      [null, 50, null],
      [null, 50, null],
    ]);
  });

  it('does not mistake a limit on max_tokens for a refusal of the parameter', async () => {
    fixture.reply(failure(400, 'max_tokens is too large: 100000. This model supports at most 16384 completion tokens'));
    const e = await failureOf(client().complete(ask({ maxTokens: 100_000 })));
    expect(e.code).toBe('LLM_REJECTED');
    expect(fixture.requests).toHaveLength(1);
  });

  it('never sends response_format when told to use instructions only', async () => {
    fixture.reply(answer('{}'));
    expect((await client({ structuredOutput: 'instructions' }).complete(ask({ jsonSchema: schema }))).structured).toBe('instructions');
    expect(fixture.requests[0].body.response_format).toBeUndefined();
  });

  it('counts usage itself (o200k_base, marked estimated) when the server sends none', async () => {
    fixture.reply(answer('Hi there.', null));
    const { usage } = await client().complete(ask());
    expect(usage).toEqual({ prompt: expect.any(Number), completion: 3, estimated: true });
    expect(usage.prompt).toBeGreaterThan(4);
  });

  it('turns HTTP failures into typed errors: 5xx and 429 transient, a refused key or model permanent, other 4xx rejected', async () => {
    const c = client();
    fixture.reply(failure(500, 'boom'), failure(503, 'loading model'), failure(429, 'slow down'), failure(401, 'bad key'), failure(404, 'model "x" not found'), failure(400, 'context length exceeded'));
    const codes = [];
    for (let i = 0; i < 6; i++) {
      const e = await failureOf(c.complete(ask()));
      codes.push([e.code, e.kind]);
      if (i === 5) expect(e.message).toMatch(/HTTP 400.*context length exceeded/);
    }
    expect(codes).toEqual([
      ['LLM_UNAVAILABLE', 'transient'],
      ['LLM_UNAVAILABLE', 'transient'],
      ['LLM_UNAVAILABLE', 'transient'],
      ['LLM_UNAVAILABLE', 'permanent'],
      ['LLM_UNAVAILABLE', 'permanent'],
      ['LLM_REJECTED', 'permanent'],
    ]);
  });

  it('ends a call the server never answers at its deadline with LLM_TIMEOUT', async () => {
    fixture.reply({ hang: true });
    const e = await failureOf(client().complete(ask({ timeoutMs: 300 })));
    expect([e.code, e.kind]).toEqual(['LLM_TIMEOUT', 'transient']);
    expect(e.message).toMatch(/300 ms/);
  });

  it('refuses an answer over the response size cap without reading it all', async () => {
    fixture.reply({ bytes: 5 * 1024 * 1024 });
    const e = await failureOf(client({ maxResponseBytes: 64 * 1024 }).complete(ask()));
    expect(e.code).toBe('LLM_INVALID_OUTPUT');
    expect(e.message).toMatch(/larger than 65536 bytes/);
  });

  it('says the endpoint is unavailable on a body that is not JSON, a message with no text, or a closed port', async () => {
    fixture.reply({ raw: '<html>gateway</html>' }, { body: { choices: [{ message: { content: null, tool_calls: [] } }] } });
    expect((await failureOf(client().complete(ask()))).code).toBe('LLM_UNAVAILABLE');
    expect((await failureOf(client().complete(ask()))).code).toBe('LLM_INVALID_OUTPUT');

    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const e = await failureOf(client({ baseUrl: `http://127.0.0.1:${port}/v1` }).complete(ask()));
    expect([e.code, e.kind]).toEqual(['LLM_UNAVAILABLE', 'transient']);
    expect(e.message).toMatch(/ECONNREFUSED/);
  });

  it("passes the caller's own abort through unchanged", async () => {
    fixture.reply({ hang: true });
    const controller = new AbortController();
    const pending = client().complete(ask({ signal: controller.signal }));
    const reason = new Error('client went away');
    // Abort once the request has reached the server, so the abort ends a call in flight.
    await waitFor(() => fixture.requests.length === 1);
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it('refuses a base URL that is not http(s) and a missing model', () => {
    expect(() => new OpenAiCompatibleClient({ baseUrl: 'file:///etc/passwd', model: 'm' })).toThrow(/http/);
    expect(() => new OpenAiCompatibleClient({ baseUrl: 'http://127.0.0.1:1/v1', model: '' })).toThrow(/model/);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setImmediate(resolve));
  }
}
