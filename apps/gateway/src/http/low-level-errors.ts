/**
 * Errors raised below the routes — by Node's HTTP parser (headers too large, a malformed request line) or by
 * Fastify's router (a malformed URL, an overlong path parameter) — answered in the same `{ error: { code, message } }`
 * shape as everything else.
 */
import { STATUS_CODES } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { ErrorCode } from '#contracts';

function body(code: string, message: string): string {
  return JSON.stringify({ error: { code, message } });
}

/** A request line longer than this is answered 414 rather than 431 (nginx's default request-line buffer). */
const MAX_REQUEST_LINE = 8 * 1024;

/**
 * Node reports an overlong URL as a header overflow (its limit counts the request line too). The bytes that overflowed
 * tell them apart: a packet that starts a request whose first line is still unfinished, or longer than
 * MAX_REQUEST_LINE, is a long URL.
 */
function isLongRequestLine(error: Error & { rawPacket?: unknown }): boolean {
  const packet = error.rawPacket;
  if (!Buffer.isBuffer(packet) || !/^[A-Z]+ \S/.test(packet.subarray(0, 32).toString('latin1'))) return false;
  const lineEnd = packet.indexOf('\n');
  return lineEnd < 0 || lineEnd > MAX_REQUEST_LINE;
}

/** Node's `clientError`: the request never became a request. Answer on the raw socket and close it. */
export function clientErrorHandler(error: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const overflow = error.code === 'HPE_HEADER_OVERFLOW';
  const status = (overflow && isLongRequestLine(error)) || error.code === 'HPE_URI_TOO_LONG' ? 414 : overflow ? 431 : 400;
  const message =
    status === 431 ? 'The request headers are too large' : status === 414 ? 'The request URL is too long' : 'Malformed HTTP request';
  const text = body(ErrorCode.INVALID_REQUEST, message);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}

/**
 * HTTP/1.1 requires a Host header (RFC 9112 §3.2). Node's own check answers 400 with an empty body, so it is turned
 * off (`requireHostHeader: false`) and done here, in the contract's shape.
 */
export function requireHostHeader(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (request.raw.httpVersion === '1.1' && !request.headers.host) {
    void reply.code(400).type('application/json; charset=utf-8').send(body(ErrorCode.INVALID_REQUEST, 'The Host header is required'));
    return;
  }
  done();
}

/** An `Expect` other than 100-continue: Node answers 417 with an empty body unless the server listens for this. */
export function expectationFailed(_request: IncomingMessage, response: ServerResponse): void {
  const text = body(ErrorCode.INVALID_REQUEST, 'Only "Expect: 100-continue" is supported');
  response.writeHead(417, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), connection: 'close' }).end(text);
}

/** CONNECT (a proxy tunnel): Node drops the connection unless the server listens for it; this is no proxy, so say so. */
export function refuseConnect(_request: IncomingMessage, socket: Socket): void {
  const text = body(ErrorCode.INVALID_REQUEST, 'CONNECT is not supported: this server is not a proxy');
  socket.on('error', () => undefined);
  socket.end(
    `HTTP/1.1 405 Method Not Allowed\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\n` +
      `Allow: GET, HEAD, POST\r\nConnection: close\r\n\r\n${text}`,
  );
}

/** Fastify's router errors (FST_ERR_BAD_URL, FST_ERR_MAX_PARAM_LENGTH, …). */
export function frameworkErrors(error: Error & { code?: string; statusCode?: number }, _request: FastifyRequest, reply: FastifyReply): void {
  const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : (error.statusCode ?? 400);
  const message = status === 414 ? 'A path parameter is too long' : 'Malformed request URL';
  void reply.code(status).type('application/json; charset=utf-8').send(body(ErrorCode.INVALID_REQUEST, message));
}

/**
 * Fastify's own error replies (a body over the limit, an unsupported content type, a malformed JSON body — raised
 * before any Trawl code runs) come as `{ statusCode, code, error, message }`: rewritten into the contract's shape.
 */
export function contractErrorBody(statusCode: number, payload: unknown): string | null {
  if (statusCode < 400 || typeof payload !== 'string' || !payload.startsWith('{') || !payload.includes('"statusCode"')) return null;
  let parsed: { statusCode?: unknown; error?: unknown; message?: unknown };
  try {
    parsed = JSON.parse(payload) as typeof parsed;
  } catch {
    return null;
  }
  if (typeof parsed.statusCode !== 'number' || typeof parsed.error !== 'string') return null;
  if (statusCode >= 500) return body(ErrorCode.INTERNAL, 'Internal server error');
  if (statusCode === 404) return body(ErrorCode.NOT_FOUND, 'Not found');
  const message = typeof parsed.message === 'string' && parsed.message.length <= 200 ? parsed.message : parsed.error;
  return body(ErrorCode.INVALID_REQUEST, message);
}
