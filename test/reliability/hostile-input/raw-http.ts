/**
 * HTTP for hostile inputs: `rawExchange` writes exactly the bytes given on a fresh socket (malformed request lines,
 * conflicting framing, bytes no client library would send) and reads the first answer; `sendRequest` sends a request
 * whose path is used verbatim (no URL normalisation, so percent-encoding tricks reach the server as written).
 */
import http from 'node:http';
import net from 'node:net';

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: unknown;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** De-chunks a `Transfer-Encoding: chunked` body; null until the terminating chunk has arrived. */
function dechunk(data: Buffer): Buffer | null {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return null;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (Number.isNaN(size)) return Buffer.concat(parts);
    if (size === 0) return Buffer.concat(parts);
    if (data.length < lineEnd + 2 + size + 2) return null;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** The first complete non-1xx answer in `data`, or null while it is incomplete. */
function firstAnswer(data: Buffer, head: boolean): HttpAnswer | null {
  let start = 0;
  for (;;) {
    const end = data.indexOf('\r\n\r\n', start);
    if (end < 0) return null;
    const lines = data.subarray(start, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0])?.[1] ?? 0);
    if (status >= 100 && status < 200) {
      start = end + 4; // 100 Continue: the real answer follows
      continue;
    }
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const rest = data.subarray(end + 4);
    let body: Buffer | null;
    if (head || status === 204 || status === 304) body = Buffer.alloc(0);
    else if (headers['transfer-encoding']?.includes('chunked')) body = dechunk(rest);
    else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      body = rest.length >= length ? rest.subarray(0, length) : null;
    } else body = null; // read until close
    if (body === null) return null;
    const text = body.toString('utf8');
    return { status, headers, text, json: parseJson(text) };
  }
}

/**
 * Writes `bytes` on a new connection and resolves with the first answer (status 0 when the server closed without
 * one). Rejects when nothing complete arrives within `timeoutMs`.
 */
export function rawExchange(port: number, bytes: string | Buffer, options: { head?: boolean; timeoutMs?: number } = {}): Promise<HttpAnswer> {
  const head = options.head ?? false;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    const finish = (answer: HttpAnswer | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (answer instanceof Error) reject(answer);
      else resolve(answer);
    };
    const timer = setTimeout(() => finish(new Error(`no complete answer within ${options.timeoutMs ?? 15_000} ms`)), options.timeoutMs ?? 15_000);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const answer = firstAnswer(Buffer.concat(chunks), head);
      if (answer) finish(answer);
    });
    // The server may reset a connection it refuses after answering; what arrived still counts.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const data = Buffer.concat(chunks);
      const answer = firstAnswer(Buffer.concat([data, Buffer.from('\r\n\r\n')]), head);
      if (answer) return finish(answer);
      const end = data.indexOf('\r\n\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(data.toString('latin1'))?.[1] ?? 0);
      const text = end < 0 ? '' : data.subarray(end + 4).toString('utf8');
      finish({ status, headers: {}, text, json: parseJson(text) });
    });
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/** Closes the kept-alive connections of `sendRequest` (a spec calls it in afterAll). */
export function closeAgent(): void {
  agent.destroy();
}

/** One request with `path` sent as written; `body` for POSTs. */
export function sendRequest(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string | string[]> = {},
  body?: string | Buffer,
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    // A body always travels with its length: Node sends none for a GET or DELETE body, and the server would read it as the next request.
    const withLength = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
    const request = http.request({ host: '127.0.0.1', port, method, path, headers: withLength, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const flat: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) flat[name] = String(value);
        resolve({ status: response.statusCode ?? 0, headers: flat, text, json: parseJson(text) });
      });
    });
    request.setTimeout(30_000, () => request.destroy(new Error(`${method} ${path.slice(0, 120)}: no answer within 30 s`)));
    request.on('error', reject);
    request.end(body);
  });
}
