/**
 * Probes for `/mcp`: `tools/call` arguments generated from each tool's input schema as the server lists it
 * (tools/list), judged by the tool's own zod schema; and JSON-RPC / transport tricks. A refused call is a tool
 * result with isError, the REST error body as text and the REST status in `_meta` — never a protocol crash, never a
 * charge. Protocol errors are JSON-RPC errors.
 */
import type { z } from 'zod';
import { ErrorCode, parseInput, TrawlError, type JsonSchema } from '#contracts';
import { decodeComponent } from './query-cases.js';
import { JSON_COMMON, JSON_RAW_NUMBERS, URL_ENTRIES } from './hostile-values.js';
import type { Probe } from './probes.js';
import { sendRequest, type HttpAnswer } from './raw-http.js';
import type { ProbeKeys } from './rest-probes.js';

export interface ListedTool {
  name: string;
  inputSchema: JsonSchema;
}

type Verdict = { valid: true } | { valid: false; message: string } | { crash: string };

/** Stands for a number JSON.stringify cannot write (1e309 …); bodyText writes the raw number in its place. */
const PLACEHOLDER = '@@RAW_NUMBER@@';
const BASE_URL = 'https://unreachable.invalid/';

const rpcHeaders = (key: string) => ({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': key });

export function mcpPost(port: number, key: string, body: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  return sendRequest(port, 'POST', '/mcp', { ...rpcHeaders(key), ...headers }, body);
}

function verdict(schema: z.ZodType, args: unknown): Verdict {
  try {
    parseInput(schema, args);
    return { valid: true };
  } catch (error) {
    if (error instanceof TrawlError) return { valid: false, message: error.message };
    return { crash: String(error) };
  }
}

function seeds(schema: JsonSchema): unknown[] {
  return [schema.default, ...((schema.enum as unknown[]) ?? []), ...((schema.examples as unknown[]) ?? [])].filter((s) => s !== undefined);
}

function baselineArgs(tool: ListedTool): Record<string, unknown> {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
  const required = (tool.inputSchema.required as string[] | undefined) ?? [];
  const args: Record<string, unknown> = {};
  for (const name of required) {
    const p = properties[name];
    if (p.type === 'array') args[name] = [BASE_URL];
    else if (p.format === 'uri') args[name] = BASE_URL;
    else args[name] = seeds(p)[0] ?? 'coffee';
  }
  return args;
}

/** Typed hostile values for one property, by its JSON Schema. */
function valuesFor(p: JsonSchema): Array<[string, unknown]> {
  const values: Array<[string, unknown]> = [...JSON_COMMON];
  for (const seed of seeds(p)) {
    values.push([`seed ${JSON.stringify(seed)}`, seed], [`seed as string`, String(seed)], [`seed in an array`, [seed]]);
    if (typeof seed === 'string') values.push([`seed upper-cased`, seed.toUpperCase()], [`seed padded`, ` ${seed} `], [`seed + NUL`, `${seed}\u0000`]);
  }
  if (p.type === 'integer') {
    const min = typeof p.minimum === 'number' ? p.minimum : 1;
    const max = typeof p.maximum === 'number' ? p.maximum : 100;
    for (const n of [min, max, min - 1, max + 1, -0, 2 ** 53 + 2]) values.push([`integer ${n}`, n]);
    values.push(['integer as string', String(min)]);
    for (const raw of JSON_RAW_NUMBERS) values.push([`raw number ${raw}`, { [PLACEHOLDER]: raw }]);
  }
  if (p.type === 'boolean') values.push(['"false" string', 'false'], ['1', 1], ['"yes"', 'yes']);
  const urlish = p.type === 'array' || p.format === 'uri';
  if (urlish) {
    for (const entry of URL_ENTRIES) {
      const url = decodeComponent(entry.raw);
      values.push([`URL ${entry.label}`, p.type === 'array' ? [url] : url]);
    }
    if (p.type === 'array') {
      const maxItems = typeof p.maxItems === 'number' ? p.maxItems : 20;
      values.push(
        [`${maxItems + 1} URLs`, Array.from({ length: maxItems + 1 }, (_, i) => `${BASE_URL}${i}`)],
        ['10,000 copies of one URL', Array(10_000).fill(BASE_URL)],
        ['URL as a comma-separated string', `${BASE_URL},${BASE_URL}x`],
        ['URL list with a number', [BASE_URL, 1]],
      );
    }
  }
  return values;
}

/** JSON text of the request, with any raw-number placeholder written as the raw number. */
function bodyText(id: number, name: string, args: unknown): string {
  const text = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
  return text.replace(/\{"@@RAW_NUMBER@@":"([^"]+)"\}/g, '$1');
}

/**
 * The arguments as the tool receives them, for the local verdict: what JSON.parse makes of them (raw numbers
 * included), less an own `__proto__` key — the SDK's validation copies the arguments key by key, and that key then
 * sets the copy's prototype instead (a strict schema would otherwise judge a key the tool never sees).
 */
const parsedArgs = (body: string) => {
  const args = (JSON.parse(body) as { params: { arguments: unknown } }).params.arguments;
  if (!args || typeof args !== 'object' || Array.isArray(args) || !Object.hasOwn(args, '__proto__')) return args;
  return Object.fromEntries(Object.entries(args).filter(([name]) => name !== '__proto__'));
};

interface ToolResult {
  isError?: boolean;
  content?: Array<{ type: string; text?: string }>;
  _meta?: Record<string, unknown>;
}

function checkToolAnswer(a: HttpAnswer, v: Exclude<Verdict, { crash: string }>, param: string | undefined, insufficient: readonly string[]): string | null {
  if (a.status !== 200) return `expected HTTP 200 with a tool result, got ${a.status}`;
  const rpc = a.json as { result?: ToolResult; error?: { code: number } } | undefined;
  if (rpc?.error) return v.valid ? `a JSON-RPC error ${rpc.error.code} for valid arguments` : null;
  const result = rpc?.result;
  if (!result?.isError) return 'expected isError: the call must be refused (invalid arguments, or no credits)';
  if (result._meta?.['trawl/credits'] !== 0) return 'a refused call reports credits';
  let body: { error?: { code?: string; message?: string } };
  try {
    body = JSON.parse(result.content?.[0]?.text ?? '') as typeof body;
  } catch {
    return 'the tool error text is not the REST error body';
  }
  if (v.valid) return insufficient.includes(body.error?.code ?? '') ? null : `expected ${insufficient.join('/')}`;
  if (body.error?.code !== ErrorCode.INVALID_PARAMETER || result._meta?.['trawl/status'] !== 400) return 'expected INVALID_PARAMETER with status 400';
  if (body.error.message !== v.message) return `message differs from the schema's: ${JSON.stringify(v.message.slice(0, 100))}`;
  if (param && !body.error.message.includes(param)) return `the message does not name ${param}`;
  return null;
}

/** tools/call probes for every listed tool, judged by `schemaOf(name)` (the tool's zod schema). */
export function mcpToolProbes(tools: readonly ListedTool[], schemaOf: (name: string) => z.ZodType, port: number, keys: ProbeKeys): Probe[] {
  // A valid call with the broke key stops at its reservation; a free read (crawl_status) finds no crawl by that id.
  const insufficient = [ErrorCode.CREDITS_EXHAUSTED, ErrorCode.INSUFFICIENT_CREDITS, ErrorCode.NOT_FOUND];
  const probes: Probe[] = [];
  let id = 1;
  for (const tool of tools) {
    const schema = schemaOf(tool.name);
    const base = baselineArgs(tool);
    const properties = (tool.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
    const variants: Array<[string, string | undefined, unknown]> = [['baseline', undefined, base]];
    for (const [name, p] of Object.entries(properties)) {
      for (const [label, value] of valuesFor(p)) variants.push([`${name}=${label}`, name, { ...base, [name]: value }]);
      const { [name]: _dropped, ...without } = base;
      variants.push([`${name} absent`, name, without]);
    }
    for (const [label, args] of [
      ['unknown argument', { ...base, foo: 1 }],
      ['__proto__ argument', JSON.parse(`{"__proto__":{"x":1},${JSON.stringify(base).slice(1)}`)],
      ['constructor argument', { ...base, constructor: 'x' }],
      ['arguments null', null],
      ['arguments absent', undefined],
    ] as Array<[string, unknown]>) {
      variants.push([label, undefined, args]);
    }
    for (const [label, param, args] of variants) {
      const body = bodyText(id++, tool.name, args);
      const v = verdict(schema, parsedArgs(body) ?? {});
      const probeLabel = `MCP ${tool.name} ${label}`;
      if ('crash' in v) {
        probes.push({ label: probeLabel, jsonRpc: true, send: () => mcpPost(port, keys.funded, body), check: () => `the tool schema throws: ${v.crash}` });
        continue;
      }
      probes.push({
        label: probeLabel,
        jsonRpc: true,
        send: () => mcpPost(port, v.valid ? keys.broke : keys.funded, body),
        check: (a) => checkToolAnswer(a, v, param, insufficient),
      });
    }
  }
  // Arguments of the wrong JSON type and names that are no tool: protocol errors or refused results, never a crash.
  for (const [label, params] of [
    ['arguments an array', { name: tools[0].name, arguments: [] }],
    ['arguments a string', { name: tools[0].name, arguments: 'x' }],
    ['arguments a number', { name: tools[0].name, arguments: 1 }],
    ['unknown tool', { name: 'no_such_tool', arguments: {} }],
    ['empty tool name', { name: '', arguments: {} }],
    ['tool __proto__', { name: '__proto__', arguments: {} }],
    ['tool constructor', { name: 'constructor', arguments: {} }],
    ['tool name a number', { name: 1, arguments: {} }],
    ['tool name 100 KB', { name: 'n'.repeat(100 * 1024), arguments: {} }],
    ['no params', undefined],
    ['params an array', [tools[0].name]],
  ] as Array<[string, unknown]>) {
    const body = JSON.stringify({ jsonrpc: '2.0', id: id++, method: 'tools/call', params });
    probes.push({
      label: `MCP tools/call ${label}`,
      jsonRpc: true,
      send: () => mcpPost(port, keys.funded, body),
      check: (a) => {
        const rpc = a.json as { error?: unknown; result?: ToolResult } | undefined;
        if (a.status >= 400) return null; // checked for shape by the universal rules
        return rpc?.error || rpc?.result?.isError ? null : 'expected a JSON-RPC error or a refused result';
      },
    });
  }
  return probes;
}

const LENIENT = new Set(['tools/list with junk params', 'query junk', 'JSON in UTF-16 charset', 'session id junk', 'body "[]"']);

/** JSON-RPC and transport tricks on /mcp. */
export function mcpProtocolProbes(port: number, keys: ProbeKeys): Probe[] {
  const k = keys.funded;
  const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const cases: Array<[string, () => Promise<HttpAnswer>]> = [
    ...['', '{', '{"jsonrpc":"2.0","id":1,"method":', '[', '[1,]', "{'jsonrpc':'2.0'}", 'null', 'true', '1', '"x"', '{}', '[]', '\u0000', '\ufeff{}'].map(
      (body): [string, () => Promise<HttpAnswer>] => [`body ${JSON.stringify(body)}`, () => mcpPost(port, k, body)],
    ),
    ['jsonrpc 1.0', () => mcpPost(port, k, JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'tools/list' }))],
    ['id an object', () => mcpPost(port, k, JSON.stringify({ jsonrpc: '2.0', id: { a: 1 }, method: 'tools/list' }))],
    ['method a number', () => mcpPost(port, k, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 1 }))],
    ['method __proto__', () => mcpPost(port, k, JSON.stringify({ jsonrpc: '2.0', id: 1, method: '__proto__' }))],
    ['method constructor', () => mcpPost(port, k, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'constructor' }))],
    ['tools/list with junk params', () => mcpPost(port, k, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: { $gt: '' } } }))],
    ['batch of 50 junk', () => mcpPost(port, k, JSON.stringify(Array.from({ length: 50 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: `junk/${i}` }))), { 'mcp-protocol-version': '2025-03-26' })],
    ['text/plain', () => mcpPost(port, k, list, { 'content-type': 'text/plain' })],
    ['no content-type', () => sendRequest(port, 'POST', '/mcp', { 'x-api-key': k, accept: 'application/json' }, list)],
    ['JSON in UTF-16 charset', () => mcpPost(port, k, list, { 'content-type': 'application/json; charset=utf-16' })],
    ['accept text/html only', () => mcpPost(port, k, list, { accept: 'text/html' })],
    ['protocol version junk', () => mcpPost(port, k, list, { 'mcp-protocol-version': 'junk' })],
    ['protocol version 8 KB', () => mcpPost(port, k, list, { 'mcp-protocol-version': 'v'.repeat(8192) })],
    ['session id junk', () => mcpPost(port, k, list, { 'mcp-session-id': '../../etc' })],
    ['Origin null', () => mcpPost(port, k, list, { origin: 'null' })],
    ['Origin evil', () => mcpPost(port, k, list, { origin: 'https://evil.example' })],
    ['Origin junk', () => mcpPost(port, k, list, { origin: '%%%' })],
    ['no key', () => sendRequest(port, 'POST', '/mcp', { 'content-type': 'application/json', accept: 'application/json' }, list)],
    ['bad key', () => mcpPost(port, 'trawl_nope', list)],
    ['GET', () => sendRequest(port, 'GET', '/mcp', { 'x-api-key': k })],
    ['DELETE', () => sendRequest(port, 'DELETE', '/mcp', { 'x-api-key': k })],
    ['PUT', () => sendRequest(port, 'PUT', '/mcp', { 'x-api-key': k, 'content-type': 'application/json' }, list)],
    ['query junk', () => sendRequest(port, 'POST', '/mcp?__proto__=1&constructor=x&%zz', rpcHeaders(k), list)],
  ];
  return cases.map(([label, send]) => ({
    label: `MCP protocol: ${label}`,
    jsonRpc: true,
    send,
    check: (a: HttpAnswer) => {
      if (a.status >= 400) return null; // shape checked by the universal rules
      const body = a.json as { error?: unknown; result?: unknown } | Array<{ error?: unknown }> | undefined;
      // Served as they are: the SDK ignores the charset and (stateless) the session id; an empty batch has no request to answer.
      if (LENIENT.has(label)) return null;
      if (Array.isArray(body)) return body.every((item) => item.error) ? null : 'a junk batch item was answered with a result';
      return body?.error ? null : 'expected a JSON-RPC error';
    },
  }));
}
