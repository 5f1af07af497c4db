/**
 * A loopback OpenAI-compatible server for tests: `/v1/chat/completions` answers with scripted replies in order
 * (an answer, an HTTP error, a raw body, a huge body, or no answer at all), records each request's headers and JSON
 * body, and closes every socket on shutdown, hanging ones included.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Reply =
  | { status?: number; body: unknown }
  | { status?: number; raw: string }
  /** Sends headers, then this many bytes of body. */
  | { bytes: number }
  /** Never answers: the client's deadline has to end the call. */
  | { hang: true };

export interface RecordedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface OpenAiFixture {
  /** The base URL a client is configured with (…/v1). */
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  /** Queues replies, used one per request; a request with none queued gets a 500 that names the gap. */
  reply(...replies: Reply[]): void;
  close(): Promise<void>;
}

/** A chat completion whose message is `content`; `usage: null` leaves usage out. */
export function answer(content: string, usage: { prompt: number; completion: number } | null = { prompt: 100, completion: 20 }, finishReason = 'stop'): Reply {
  return {
    body: {
      id: 'chatcmpl-fixture',
      object: 'chat.completion',
      model: 'fixture-model',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finishReason }],
      ...(usage ? { usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion } } : {}),
    },
  };
}

export function failure(status: number, message: string): Reply {
  return { status, body: { error: { message, type: 'fixture_error' } } };
}

export async function startOpenAiFixture(): Promise<OpenAiFixture> {
  const queue: Reply[] = [];
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // recorded as text
      }
      requests.push({ path: req.url ?? '/', headers: req.headers, body });
      if (req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${req.url}` } }));
        return;
      }
      const reply = queue.shift() ?? failure(500, 'the fixture has no reply queued for this request');
      if ('hang' in reply) return;
      if ('bytes' in reply) {
        res.writeHead(200, { 'content-type': 'application/json' });
        const block = Buffer.alloc(64 * 1024, 'x');
        let left = reply.bytes;
        const pump = () => {
          while (left > 0) {
            const n = Math.min(left, block.length);
            left -= n;
            if (!res.write(block.subarray(0, n))) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('error', () => undefined);
        pump();
        return;
      }
      const payload = 'raw' in reply ? reply.raw : JSON.stringify(reply.body);
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' }).end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    reply: (...replies) => void queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
