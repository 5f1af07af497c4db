/**
 * Probes below the parameters: API-key header tricks on every REST endpoint, methods a route does not serve, bodies
 * on GETs, and malformed HTTP on raw sockets (request lines, framing conflicts, oversize heads and bodies).
 */
import { ErrorCode, type ApiEndpoint, type ApiLimits } from '#contracts';
import { codeOf, type Probe } from './probes.js';
import { baselineQuery } from './query-cases.js';
import { rawExchange, sendRequest, type HttpAnswer } from './raw-http.js';
import { insufficientCodes, type ProbeKeys } from './rest-probes.js';
import type { Route } from './route-catalog.js';

const expectCode = (status: number, code: string) => (a: HttpAnswer) =>
  a.status === status && codeOf(a) === code ? null : `expected ${status} ${code}`;
const expect4xx = (a: HttpAnswer) => (a.status >= 400 && a.status < 500 ? null : 'expected a 4xx');

/** API-key tricks on one endpoint, with an otherwise valid query (valid key → the broke account's reservation refusal). */
export function apiKeyProbes(endpoint: ApiEndpoint, limits: ApiLimits, port: number, keys: ProbeKeys): Probe[] {
  const path = `${endpoint.path}?${baselineQuery(endpoint, limits)}`;
  const insufficient = insufficientCodes(endpoint);
  const accepted = (a: HttpAnswer) => ((a.status === 402 || a.status === 429) && insufficient.has(codeOf(a) ?? '') ? null : 'expected the key to be accepted');
  const refused = expectCode(401, ErrorCode.UNAUTHORIZED);
  const k = keys.broke;
  const cases: Array<[string, Record<string, string | string[]>, (a: HttpAnswer) => string | null, string?]> = [
    ['no key', {}, refused],
    ['empty x-api-key', { 'x-api-key': '' }, refused],
    ['unknown key', { 'x-api-key': 'trawl_0000000000000000000000000000' }, refused],
    ['key upper-cased', { 'x-api-key': k.toUpperCase() }, refused],
    ['key with a character more', { 'x-api-key': `${k}x` }, refused],
    ['key cut short', { 'x-api-key': k.slice(0, -1) }, refused],
    ['key twice in one header', { 'x-api-key': `${k}, ${k}` }, refused],
    ['two x-api-key headers', { 'x-api-key': [k, k] }, refused],
    ['8 KB key', { 'x-api-key': 'k'.repeat(8 * 1024) }, refused],
    ['key with SQL', { 'x-api-key': "' OR '1'='1" }, refused],
    ['Authorization: Bearer', { authorization: `Bearer ${k}` }, accepted],
    ['Authorization: bearer (case)', { authorization: `bearer ${k}` }, accepted],
    ['Authorization: Bearer, two spaces', { authorization: `Bearer  ${k}` }, accepted],
    ['Authorization: Bearer without key', { authorization: 'Bearer' }, refused],
    ['Authorization: Bearer with two tokens', { authorization: `Bearer ${k} ${k}` }, refused],
    ['Authorization: Basic', { authorization: `Basic ${Buffer.from(`${k}:`).toString('base64')}` }, refused],
    ['Authorization: the bare key', { authorization: k }, refused],
    ['both headers, same key', { 'x-api-key': k, authorization: `Bearer ${k}` }, accepted],
    ['both headers, different keys', { 'x-api-key': k, authorization: `Bearer ${keys.funded}` }, refused],
    ['key as a cookie', { cookie: `x-api-key=${k}; api_key=${k}` }, refused],
    // Another scheme carries no API key: beside a valid x-api-key it does not hide it (issue #37, docs/decisions.md).
    ['x-api-key plus an Authorization of another scheme', { 'x-api-key': k, authorization: 'Digest x' }, accepted],
    ['x-api-key plus a Bearer without key', { 'x-api-key': k, authorization: 'Bearer' }, refused],
  ];
  const probes: Probe[] = cases.map(([label, headers, check]) => ({
    label: `GET ${endpoint.path} ${label}`,
    send: () => sendRequest(port, 'GET', path, headers),
    check,
  }));
  // HEAD runs the GET route: the same statuses, no body.
  const repeated = `${path}&${path.split('?')[1]}`;
  probes.push(
    { label: `HEAD ${endpoint.path} valid query`, head: true, send: () => sendRequest(port, 'HEAD', path, { 'x-api-key': k }), check: (a) => (a.status === 402 || a.status === 429 ? null : 'expected 402/429') },
    { label: `HEAD ${endpoint.path} repeated parameter`, head: true, send: () => sendRequest(port, 'HEAD', repeated, { 'x-api-key': keys.funded }), check: (a) => (a.status === 400 ? null : 'expected 400') },
  );
  // The key in the query string is never read: alone it is no key; beside a header key it is ignored.
  for (const name of ['x-api-key', 'api_key', 'apiKey', 'key', 'access_token', 'authorization']) {
    const withKey = `${path}&${name}=${encodeURIComponent(k)}`;
    probes.push(
      { label: `GET ${endpoint.path} key only in ?${name}`, send: () => sendRequest(port, 'GET', withKey), check: refused },
      { label: `GET ${endpoint.path} key in ?${name} and in the header`, send: () => sendRequest(port, 'GET', withKey, { 'x-api-key': k }), check: accepted },
    );
  }
  // Bodies on a GET are ignored, whatever they claim to be.
  for (const [type, body] of [
    ['application/json', '{"urls":"javascript:alert(1)","query":""}'],
    ['application/json', '{{{'],
    ['text/weird', 'abc'],
    ['application/x-www-form-urlencoded', 'q=&query=&urls='],
  ]) {
    probes.push({
      label: `GET ${endpoint.path} with a ${type} body`,
      send: () => sendRequest(port, 'GET', path, { 'x-api-key': k, 'content-type': type }, body),
      check: accepted,
    });
  }
  return probes;
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND', 'PURGE'];

const patternRe = (pattern: string) => new RegExp(`^${pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+')}$`);

/**
 * Methods a route does not declare: 404 NOT_FOUND (HEAD is served wherever GET is). Sent with every credential. A
 * method another route serves on the same concrete path (`DELETE /v2/crawl/:id` for `/v2/crawl/active`) is that route's.
 */
export function methodProbes(routes: readonly Route[], port: number, headers: Record<string, string>): Probe[] {
  const probes: Probe[] = [];
  const served = (method: string, path: string) => routes.some((r) => r.methods.has(method) && patternRe(r.pattern).test(path));
  for (const route of routes) {
    for (const method of METHODS) {
      if (route.methods.has(method) || (method === 'HEAD' && route.methods.has('GET')) || served(method, route.path)) continue;
      probes.push({
        label: `${method} ${route.pattern} (${route.controller}.${route.handler} serves ${[...route.methods].join('/')})`,
        head: method === 'HEAD',
        send: () => sendRequest(port, method, route.path, headers, ['POST', 'PUT', 'PATCH'].includes(method) ? '{}' : undefined),
        check: method === 'HEAD' ? (a) => (a.status === 404 ? null : 'expected 404') : expectCode(404, ErrorCode.NOT_FOUND),
      });
    }
  }
  return probes;
}

/** A whole request on a raw socket, `Connection: close` added where the request has a head to add it to. */
const crlf = (lines: string[], body = '') => `${lines.join('\r\n')}\r\n\r\n${body}`;

/**
 * Malformed HTTP: each must be answered (never a dropped connection), never with a 5xx, any error in the contract's
 * shape. Where Node's parser is lenient (HTTP/0.9, a 2.0 version, a double space, two Hosts, a BOM before JSON) the
 * request is served; the case has no expectation beyond the universal ones.
 */
export function framingProbes(port: number, keys: ProbeKeys, adminToken: string): Probe[] {
  const k = keys.funded;
  const json = (text: string) => ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(text)}`];
  const admin = `Authorization: Bearer ${adminToken}`;
  const served = () => null;
  const cases: Array<[string, string | Buffer, ((a: HttpAnswer) => string | null)?]> = [
    ['garbage request line', 'GARBAGE\r\n\r\n', expectCode(400, ErrorCode.INVALID_REQUEST)],
    ['HTTP/0.9 request line', 'GET /health\r\n\r\n', served],
    ['HTTP/2.0 in an HTTP/1 request line', crlf(['GET /health HTTP/2.0', 'Host: x']), served],
    ['HTTP/1.1 preface of h2', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
    ['lower-case method', crlf(['get /health HTTP/1.1', 'Host: x', 'Connection: close'])],
    ['unknown method', crlf(['FOO /health HTTP/1.1', 'Host: x', 'Connection: close'])],
    ['double space in request line', crlf(['GET  /health HTTP/1.1', 'Host: x', 'Connection: close']), served],
    ['space inside the target', crlf(['GET /cr awl HTTP/1.1', 'Host: x', 'Connection: close'])],
    ['no Host', crlf(['GET /health HTTP/1.1', 'Connection: close']), expectCode(400, ErrorCode.INVALID_REQUEST)],
    ['two Hosts', crlf(['GET /health HTTP/1.1', 'Host: a', 'Host: b', 'Connection: close']), served],
    // Absolute-form is valid HTTP/1.1: routed by its path (the broke key: it stops at the reservation).
    ['absolute-form target', crlf(['GET http://evil.example/crawl?urls=https://unreachable.invalid/ HTTP/1.1', 'Host: x', `x-api-key: ${keys.broke}`, 'Connection: close']), expectCode(429, ErrorCode.CREDITS_EXHAUSTED)],
    ['asterisk target', crlf(['OPTIONS * HTTP/1.1', 'Host: x', 'Connection: close'])],
    ['CONNECT', crlf(['CONNECT unreachable.invalid:443 HTTP/1.1', 'Host: unreachable.invalid:443']), expectCode(405, ErrorCode.INVALID_REQUEST)],
    ['Upgrade: websocket', crlf(['GET /mcp HTTP/1.1', 'Host: x', 'Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=='])],
    ['header without a colon', crlf(['GET /health HTTP/1.1', 'Host: x', 'NoColon', 'Connection: close'])],
    ['space in a header name', crlf(['GET /health HTTP/1.1', 'Host: x', 'X Y: 1', 'Connection: close'])],
    ['folded header', crlf(['GET /health HTTP/1.1', 'Host: x', 'X-A: 1', ' 2', 'Connection: close'])],
    ['NUL in a header value', crlf(['GET /health HTTP/1.1', 'Host: x', 'X-A: a\u0000b', 'Connection: close'])],
    ['control character in x-api-key', crlf(['GET /crawl HTTP/1.1', 'Host: x', `x-api-key: ${k}\u0001`, 'Connection: close'])],
    ['bare LF line ends', 'GET /health HTTP/1.1\nHost: x\nConnection: close\n\n', served],
    [
      'Latin-1 bytes in x-api-key',
      Buffer.concat([Buffer.from('GET /crawl?urls=https%3A%2F%2Funreachable.invalid%2F HTTP/1.1\r\nHost: x\r\nx-api-key: '), Buffer.from([0xe9, 0xff, 0x80]), Buffer.from('\r\nConnection: close\r\n\r\n')]),
      expectCode(401, ErrorCode.UNAUTHORIZED),
    ],
    ['20 KB x-api-key', crlf(['GET /crawl HTTP/1.1', 'Host: x', `x-api-key: ${'k'.repeat(20_000)}`, 'Connection: close']), expectCode(431, ErrorCode.INVALID_REQUEST)],
    ['20 KB of headers', crlf(['GET /health HTTP/1.1', 'Host: x', ...Array.from({ length: 200 }, (_, i) => `X-H${i}: ${'v'.repeat(100)}`), 'Connection: close']), expectCode(431, ErrorCode.INVALID_REQUEST)],
    ['20 KB URL', crlf([`GET /search?query=${'q'.repeat(20_000)} HTTP/1.1`, 'Host: x', 'Connection: close']), expectCode(414, ErrorCode.INVALID_REQUEST)],
    ['Transfer-Encoding and Content-Length', crlf(['POST /mcp HTTP/1.1', 'Host: x', 'Transfer-Encoding: chunked', 'Content-Length: 5', 'Connection: close'], '0\r\n\r\n'), expectCode(400, ErrorCode.INVALID_REQUEST)],
    ['two different Content-Lengths', crlf(['POST /admin/accounts HTTP/1.1', 'Host: x', admin, 'Content-Type: application/json', 'Content-Length: 2', 'Content-Length: 3', 'Connection: close'], '{}'), expectCode(400, ErrorCode.INVALID_REQUEST)],
    ['negative Content-Length', crlf(['POST /admin/accounts HTTP/1.1', 'Host: x', admin, 'Content-Type: application/json', 'Content-Length: -1', 'Connection: close'], '{}'), expectCode(400, ErrorCode.INVALID_REQUEST)],
    ['Content-Length not a number', crlf(['POST /admin/accounts HTTP/1.1', 'Host: x', admin, 'Content-Type: application/json', 'Content-Length: 1e3', 'Connection: close'], '{}'), expectCode(400, ErrorCode.INVALID_REQUEST)],
    ['bad chunk size', crlf(['POST /admin/accounts HTTP/1.1', 'Host: x', admin, 'Content-Type: application/json', 'Transfer-Encoding: chunked', 'Connection: close'], 'zz\r\n{}\r\n0\r\n\r\n'), expectCode(400, ErrorCode.INVALID_REQUEST)],
    ['Transfer-Encoding: xchunked', crlf(['POST /admin/accounts HTTP/1.1', 'Host: x', admin, 'Content-Type: application/json', 'Transfer-Encoding: xchunked', 'Connection: close'], '{}')],
    ['Transfer-Encoding: chunked, identity', crlf(['POST /admin/accounts HTTP/1.1', 'Host: x', admin, 'Content-Type: application/json', 'Transfer-Encoding: chunked, identity', 'Connection: close'], '2\r\n{}\r\n0\r\n\r\n')],
    ['Expect: teapot', crlf(['GET /health HTTP/1.1', 'Host: x', 'Expect: teapot', 'Connection: close']), expectCode(417, ErrorCode.INVALID_REQUEST)],
    ['admin JSON with __proto__', crlf(['POST /admin/accounts HTTP/1.1', 'Host: x', admin, ...json('{"__proto__":{"admin":true},"name":"x"}'), 'Connection: close'], '{"__proto__":{"admin":true},"name":"x"}'), expectCode(400, ErrorCode.INVALID_REQUEST)],
    ['admin JSON with constructor.prototype', crlf(['POST /admin/accounts HTTP/1.1', 'Host: x', admin, ...json('{"constructor":{"prototype":{"a":1}},"name":"x"}'), 'Connection: close'], '{"constructor":{"prototype":{"a":1}},"name":"x"}'), expectCode(400, ErrorCode.INVALID_REQUEST)],
    ['admin body over 64 KB', crlf(['POST /admin/accounts HTTP/1.1', 'Host: x', admin, ...json(`{"name":"${'n'.repeat(70_000)}"}`), 'Connection: close'], `{"name":"${'n'.repeat(70_000)}"}`), expectCode(413, ErrorCode.INVALID_REQUEST)],
    ['admin body nested 20,000 deep', crlf(['POST /admin/accounts HTTP/1.1', 'Host: x', admin, ...json(`${'['.repeat(20_000)}${']'.repeat(20_000)}`), 'Connection: close'], `${'['.repeat(20_000)}${']'.repeat(20_000)}`)],
    ['admin body as text/plain', crlf(['POST /admin/accounts HTTP/1.1', 'Host: x', admin, 'Content-Type: text/plain', 'Content-Length: 2', 'Connection: close'], '{}'), expectCode(400, ErrorCode.INVALID_PARAMETER)],
    ['admin body in UTF-16', crlf(['POST /admin/accounts HTTP/1.1', 'Host: x', admin, 'Content-Type: application/json; charset=utf-16', 'Content-Length: 2', 'Connection: close'], '{}')],
    ['admin body with a BOM', Buffer.concat([Buffer.from(crlf(['POST /admin/accounts HTTP/1.1', 'Host: x', admin, 'Content-Type: application/json', 'Content-Length: 15', 'Connection: close'])), Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"name":"x"}')]), served],
    ['admin body claiming gzip', crlf(['POST /admin/accounts HTTP/1.1', 'Host: x', admin, 'Content-Type: application/json', 'Content-Encoding: gzip', 'Content-Length: 2', 'Connection: close'], '{}')],
    ['admin body with invalid UTF-8', Buffer.concat([Buffer.from(crlf(['POST /admin/accounts HTTP/1.1', 'Host: x', admin, 'Content-Type: application/json', 'Content-Length: 14', 'Connection: close'])), Buffer.from('{"name":"'), Buffer.from([0xc0, 0xaf, 0xff]), Buffer.from('"}')]), served],
    ['MCP body over 1 MB', crlf(['POST /mcp HTTP/1.1', 'Host: x', `x-api-key: ${k}`, ...json(`"${'m'.repeat(1_100_000)}"`), 'Connection: close'], `"${'m'.repeat(1_100_000)}"`), (a) => (a.status === 413 ? null : 'expected 413')],
  ];
  return cases.map(([label, bytes, check]) => ({
    label: `raw: ${label}`,
    jsonRpc: label.startsWith('MCP'),
    send: () => rawExchange(port, bytes),
    check: check ?? expect4xx,
  }));
}

/** The routes without an API key (health, API reference, metrics with the admin token) ignore junk in the query. */
export function openRouteProbes(port: number, adminToken: string, junk: readonly string[]): Probe[] {
  const routes: Array<[string, Record<string, string>]> = [
    ['/health', {}],
    ['/openapi.json', {}],
    ['/docs', {}],
    ['/metrics', { authorization: `Bearer ${adminToken}` }],
  ];
  return routes.flatMap(([path, headers]) =>
    junk.map((query) => ({
      label: `GET ${path}?${query.slice(0, 60)}`,
      send: () => sendRequest(port, 'GET', `${path}?${query}`, headers),
      check: (a: HttpAnswer) => (a.status === 200 ? null : 'expected 200: the query is not read'),
    })),
  );
}
