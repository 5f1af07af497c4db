/**
 * Probes for the admin API under the admin token: bodies generated from each handler's zod body schema, hostile
 * account ids in the path, and token tricks on every admin route. Bodies aimed at an existing account use a victim
 * account of their own, never the accounts whose ledgers the suite checks.
 */
import type { Type } from '@nestjs/common';
import type { z } from 'zod';
import { ErrorCode, parseInput, toJsonSchema, TrawlError, type JsonSchema } from '#contracts';
import { JSON_COMMON } from './hostile-values.js';
import { codeOf, messageOf, type Probe } from './probes.js';
import { sendRequest, type HttpAnswer } from './raw-http.js';
import { handlerRoute, type Route } from './route-catalog.js';

const json = { 'content-type': 'application/json' };
/** The gateway's JSON body limit (bootstrap.ts). */
const ADMIN_BODY_LIMIT = 64 * 1024;

/** A body the schema accepts: each required field with a value of its type. */
function baselineBody(schema: JsonSchema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const body: Record<string, unknown> = {};
  for (const name of (schema.required as string[] | undefined) ?? []) {
    const p = properties[name];
    const types = ([] as unknown[]).concat(p.type ?? (p.anyOf as JsonSchema[] | undefined)?.map((a) => a.type) ?? []);
    body[name] = types.includes('null') ? null : types.includes('integer') || types.includes('number') ? 1 : 'hostile-input';
  }
  return body;
}

function typedValues(p: JsonSchema): Array<[string, unknown]> {
  const values: Array<[string, unknown]> = [...JSON_COMMON];
  const types = ([] as unknown[]).concat(p.type ?? (p.anyOf as JsonSchema[] | undefined)?.map((a) => a.type) ?? []);
  if (types.includes('integer') || types.includes('number')) {
    for (const n of [1, 2, 2 ** 31, 1e9, 1e9 + 1, Number.MAX_SAFE_INTEGER + 2, -0, 0.1]) values.push([`number ${n}`, n]);
  }
  if (p.default !== undefined) values.push(['default', p.default], ['default upper-cased', String(p.default).toUpperCase()]);
  const formats = [p.format, ...((p.anyOf as JsonSchema[] | undefined) ?? []).map((a) => a.format)];
  if (formats.includes('date-time')) {
    for (const d of ['2030-01-01T00:00:00Z', '2030-13-01T00:00:00Z', '9999-12-31T23:59:59Z', '0000-01-01T00:00:00Z', '2030-01-01', 'now', '2030-01-01T00:00:00+99:00']) {
      values.push([`date ${d}`, d]);
    }
  }
  values.push(['plan-like "scale"', 'scale'], ['plan-like "FREE"', 'FREE'], ['201 characters', 'n'.repeat(201)]);
  return values;
}

/** Bodies for every handler in `bodies`, sent to its own route with `id` as the account. */
export function adminBodyProbes(controller: Type<unknown>, bodies: Record<string, z.ZodType>, port: number, token: string, victimId: string): Probe[] {
  const headers = { ...json, authorization: `Bearer ${token}` };
  const probes: Probe[] = [];
  for (const [handler, schema] of Object.entries(bodies)) {
    const route = handlerRoute(controller, handler, () => victimId);
    const jsonSchema = toJsonSchema(schema, 'input');
    const properties = (jsonSchema.properties ?? {}) as Record<string, JsonSchema>;
    const base = baselineBody(jsonSchema);
    const variants: Array<[string, string | undefined, unknown]> = [
      ['baseline', undefined, base],
      ['empty object', undefined, {}],
      ['array', undefined, []],
      ['string', undefined, 'x'],
      ['null', undefined, null],
      ['unknown field', undefined, { foo: 1 }],
    ];
    for (const [name, p] of Object.entries(properties)) for (const [label, value] of typedValues(p)) variants.push([`${name}=${label}`, name, { ...base, [name]: value }]);
    for (const [label, param, body] of variants) {
      let verdict: { valid: true } | { valid: false; message: string };
      try {
        parseInput(schema, body, 'body');
        verdict = { valid: true };
      } catch (error) {
        if (!(error instanceof TrawlError)) throw error;
        verdict = { valid: false, message: error.message };
      }
      const text = JSON.stringify(body);
      probes.push({
        label: `${route.method} ${route.pattern} ${label}`,
        send: () => sendRequest(port, route.method, route.path, headers, text),
        check: (a: HttpAnswer) => {
          // Refused by Fastify before the schema: over the 64 KB body limit, or a prototype key in the JSON.
          if (text.length > ADMIN_BODY_LIMIT) return a.status === 413 ? null : 'expected 413 for a body over the limit';
          if (text.includes('"__proto__"')) return a.status === 400 && codeOf(a) === ErrorCode.INVALID_REQUEST ? null : 'expected 400 INVALID_REQUEST for __proto__';
          if (verdict.valid) return null; // the service may still refuse it (unknown plan, a name too long): any 2xx/4xx in shape
          if (a.status !== 400 || codeOf(a) !== ErrorCode.INVALID_PARAMETER) return 'expected 400 INVALID_PARAMETER';
          if (messageOf(a) !== verdict.message) return `message differs from the schema's: ${JSON.stringify(verdict.message)}`;
          if (param && !verdict.message.includes(param)) return `the message does not name ${param}`;
          return null;
        },
      });
    }
  }
  return probes;
}

/** Path segments that name nothing (as written into the path): no account id, no screenshot key. */
const HOSTILE_SEGMENTS = [
  '%20', '-'.repeat(36), '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', 'FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF',
  '00000000-0000-0000-0000-000000000000x', "'%20OR%201=1--", '%00', '..%2F..%2Fplans', '%2e%2e', '%zz', '%ED%A0%80', '%F0%9F%92%A9',
  'a'.repeat(200), 'a'.repeat(201), '0', '-1', 'null', 'undefined', '__proto__', 'constructor', '%2F', '%5C', 'g'.repeat(36),
  '..%2F..%2F..%2Fetc%2Fpasswd.png', '%2Fetc%2Fpasswd',
];

/**
 * Every route with a path parameter (admin `:id`, screenshot `:key`), with segments that name nothing: a 4xx, never
 * someone's data or a 5xx. Sent with every credential (`headers`) so that only the segment can be wrong.
 */
export function pathParamProbes(routes: readonly Route[], port: number, headers: Record<string, string>): Probe[] {
  return routes
    .filter((route) => /:\w+/.test(route.pattern))
    .flatMap((route) =>
      [...route.methods].flatMap((method) =>
        HOSTILE_SEGMENTS.map((segment) => ({
          label: `${method} ${route.pattern} with ${segment.slice(0, 40)}`,
          send: () =>
            sendRequest(port, method, `${route.pattern.replace(/:\w+/g, segment)}?expires=1&signature=%00`, { ...json, ...headers }, method === 'GET' ? undefined : '{}'),
          check: (a: HttpAnswer) => (a.status >= 400 && a.status < 500 ? null : 'expected a 4xx for a path segment that names nothing'),
        })),
      ),
    );
}

/** Token tricks on every admin route: all 401 UNAUTHORIZED. */
export function adminTokenProbes(routes: readonly Route[], port: number, token: string, apiKey: string): Probe[] {
  const tricks: Array<[string, Record<string, string>, string]> = [
    ['no token', {}, ''],
    ['wrong token', { authorization: 'Bearer nope' }, ''],
    ['token with a suffix', { authorization: `Bearer ${token}x` }, ''],
    ['token and a second word', { authorization: `Bearer ${token} x` }, ''],
    ['token upper-cased', { authorization: `Bearer ${token.toUpperCase()}` }, ''],
    ['Basic token', { authorization: `Basic ${Buffer.from(`admin:${token}`).toString('base64')}` }, ''],
    ['token as x-api-key', { 'x-api-key': token }, ''],
    ['token in the query', {}, `?token=${token}&admin_token=${token}`],
    ['an API key as the token', { authorization: `Bearer ${apiKey}` }, ''],
  ];
  return routes.flatMap((route) =>
    [...route.methods].flatMap((method) =>
      tricks.map(([label, headers, query]) => ({
        label: `${method} ${route.pattern} ${label}`,
        send: () => sendRequest(port, method, `${route.path}${query}`, { ...json, ...headers }, method === 'GET' ? undefined : '{}'),
        check: (a: HttpAnswer) => (a.status === 401 && codeOf(a) === ErrorCode.UNAUTHORIZED ? null : 'expected 401 UNAUTHORIZED'),
      })),
    ),
  );
}
