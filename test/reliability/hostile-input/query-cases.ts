/**
 * Hostile query strings for the REST endpoints, generated from each endpoint's own parameter schema (the JSON
 * Schema the API reference builds from the zod schema: type, enum, pattern, bounds, examples), so a new parameter is
 * fuzzed without touching this file. Each case carries what the contract alone says about it (`mustBeInvalid`), and
 * `verdictOf` gives the schema's own verdict on the query as the server will see it.
 */
import { paramsJsonSchema, parseQuery, TrawlError, type ApiEndpoint, type ApiLimits, type JsonSchema } from '#contracts';
import {
  BOOLEAN_RAW,
  COMMON_RAW,
  INTEGER_FORMS,
  OVERSIZE_RAW,
  URL_ENTRIES,
  seedMutations,
  type RawValue,
} from './hostile-values.js';

export interface QueryCase {
  endpoint: ApiEndpoint;
  label: string;
  /** The parameter at fault when the case is refused (absent for unknown parameters). */
  param?: string;
  /** The query string, without `?`, exactly as sent. */
  query: string;
  mustBeInvalid: boolean;
  /** Longer than any request line the server reads: refused with 414 before routing. */
  oversize: boolean;
}

export type Verdict = { valid: true } | { valid: false; message: string } | { crash: string };

/** Names that are not parameters: prototype keys, key-carrying names, and the like. */
const UNKNOWN_NAMES = [
  'foo', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', '__defineGetter__',
  'x-api-key', 'api_key', 'apiKey', 'key', 'access_token', 'callback', 'format', 'a'.repeat(1000), '%00', '%zz', '%E2%80%8B',
];
/** A request line past this many bytes cannot fit Node's 16 KiB header limit. */
const MAX_REQUEST_LINE = 16 * 1024;
const BASE_URL_ENTRY = 'https://unreachable.invalid/';

/** Decodes one query-string component as Fastify's parser (fast-querystring) does: `+` is a space, bad escapes stay as sent. */
export function decodeComponent(raw: string): string {
  const spaced = raw.replace(/\+/g, ' ');
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced) || spaced;
  } catch {
    return spaced;
  }
}

/** The query object the route receives: repeated names become arrays, a name without `=` gets `''`. */
export function decodeQuery(query: string): Record<string, string | string[]> {
  const out = Object.create(null) as Record<string, string | string[]>;
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    if (eq < 0 && pair === '') continue;
    const name = decodeComponent(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decodeComponent(pair.slice(eq + 1));
    const current = out[name];
    if (current === undefined) out[name] = value;
    else out[name] = Array.isArray(current) ? [...current, value] : [current, value];
  }
  return out;
}

/** What the endpoint's schema says about the query: accepted, refused (with the 400's message), or a crash (a defect). */
export function verdictOf(endpoint: ApiEndpoint, limits: ApiLimits, query: string): Verdict {
  try {
    parseQuery(endpoint.params(limits), decodeQuery(query));
    return { valid: true };
  } catch (error) {
    if (error instanceof TrawlError) return { valid: false, message: error.message };
    return { crash: String((error as Error)?.stack ?? error) };
  }
}

interface Property {
  name: string;
  schema: JsonSchema;
}

function propertiesOf(endpoint: ApiEndpoint, limits: ApiLimits): { properties: Property[]; required: string[] } {
  const json = paramsJsonSchema(endpoint, limits);
  const properties = Object.entries((json.properties ?? {}) as Record<string, JsonSchema>).map(([name, schema]) => ({ name, schema }));
  return { properties, required: (json.required as string[] | undefined) ?? [] };
}

/** Valid values the schema itself names: its default, enum members and examples. */
function seedsOf(schema: JsonSchema): string[] {
  const seeds: unknown[] = [schema.default, ...((schema.enum as unknown[]) ?? []), ...((schema.examples as unknown[]) ?? [])];
  return seeds.filter((s): s is string | number | boolean => s !== undefined && s !== null).map(String);
}

/** A valid value for a required parameter, so that a case changes one thing only. */
function baselineValue(property: Property): string {
  if (property.schema.type === 'array') return encodeURIComponent(BASE_URL_ENTRY);
  return encodeURIComponent(seedsOf(property.schema)[0] ?? 'coffee');
}

/** What the contract alone says about a decoded value for this parameter: true when it can never be accepted. */
function contractRefuses(property: Property, value: string | string[], required: boolean): boolean {
  if (Array.isArray(value)) return true; // a repeated parameter
  const s = property.schema;
  const trimmed = value.trim();
  // An empty value of a parameter with a default means that default (docs/decisions.md, "Empty values").
  if (trimmed === '' && s.default !== undefined) return false;
  switch (s.type) {
    case 'boolean':
      return value !== 'true' && value !== 'false';
    case 'integer': {
      if (!/^\s*-?\d+\s*$/.test(value)) return true;
      const n = Number(trimmed);
      return (typeof s.minimum === 'number' && n < s.minimum) || (typeof s.maximum === 'number' && n > s.maximum);
    }
    case 'array':
      return trimmed === '' && required;
    default: {
      if (trimmed === '') return required;
      if (Array.isArray(s.enum) && !s.enum.some((e) => String(e).toLowerCase() === trimmed.toLowerCase())) return true;
      if (typeof s.pattern === 'string' && !new RegExp(s.pattern).test(trimmed)) return true;
      if (typeof s.maxLength === 'number' && trimmed.length > s.maxLength) return true;
      return false;
    }
  }
}

function valuesFor(property: Property, limits: ApiLimits): RawValue[] {
  const s = property.schema;
  const values: RawValue[] = [...COMMON_RAW, ...seedMutations(seedsOf(s))];
  if (s.type === 'boolean') values.push(...BOOLEAN_RAW.map((raw) => ({ label: `boolean form ${JSON.stringify(raw)}`, raw })));
  if (s.type === 'integer') {
    const min = typeof s.minimum === 'number' ? s.minimum : 1;
    const max = typeof s.maximum === 'number' ? s.maximum : 100;
    for (const n of [min, max, min - 1, max + 1, 0, -1, max * 1000]) values.push({ label: `integer ${n}`, raw: String(n) });
    values.push(...INTEGER_FORMS.map((raw) => ({ label: `integer form ${JSON.stringify(raw)}`, raw })));
  }
  if (s.type === 'array') {
    values.push(...URL_ENTRIES.map((entry) => ({ ...entry, label: `URL ${entry.label}` })));
    const maxItems = typeof s.maxItems === 'number' ? s.maxItems : Math.max(limits.crawlMaxUrls, limits.headfulMaxUrls);
    const distinct = (n: number) => Array.from({ length: n }, (_, i) => encodeURIComponent(`https://unreachable.invalid/${i}`)).join(',');
    values.push(
      { label: `${maxItems} distinct URLs`, raw: distinct(maxItems) },
      { label: `${maxItems + 1} distinct URLs`, raw: distinct(maxItems + 1), mustBeInvalid: true },
      { label: `${maxItems * 5} copies of one URL`, raw: Array(maxItems * 5).fill(encodeURIComponent(BASE_URL_ENTRY)).join(',') },
      // One malformed entry among well-formed ones fails that URL alone (docs/decisions.md, "urls list"): accepted.
      { label: 'URL then a javascript: URL', raw: `${encodeURIComponent(BASE_URL_ENTRY)},${encodeURIComponent('javascript:alert(1)')}` },
      { label: 'only malformed entries', raw: `${encodeURIComponent('javascript:alert(1)')},${encodeURIComponent('not a url')}`, mustBeInvalid: true },
      { label: 'encoded comma inside a URL', raw: encodeURIComponent('https://unreachable.invalid/a%2Cb') },
    );
  }
  values.push(...OVERSIZE_RAW);
  return values;
}

/** A valid query for the endpoint: its required parameters only. */
export function baselineQuery(endpoint: ApiEndpoint, limits: ApiLimits): string {
  const { properties, required } = propertiesOf(endpoint, limits);
  return properties
    .filter((p) => required.includes(p.name))
    .map((p) => `${p.name}=${baselineValue(p)}`)
    .join('&');
}

const fullyEncoded = (name: string) => [...Buffer.from(name)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/** Every hostile query for one endpoint. */
export function queryCases(endpoint: ApiEndpoint, limits: ApiLimits): QueryCase[] {
  const { properties, required } = propertiesOf(endpoint, limits);
  const baseline = new Map(properties.filter((p) => required.includes(p.name)).map((p) => [p.name, baselineValue(p)] as const));
  const build = (overrides: Map<string, string | null>, extra: string[] = []): string => {
    const pairs: string[] = [];
    for (const [name, value] of baseline) if (!overrides.has(name)) pairs.push(`${name}=${value}`);
    for (const [name, value] of overrides) if (value !== null) pairs.push(`${name}=${value}`);
    return [...pairs, ...extra].join('&');
  };
  const cases: QueryCase[] = [];
  const add = (label: string, query: string, param: string | undefined, mustBeInvalid: boolean) =>
    cases.push({ endpoint, label: `${endpoint.path} ${label}`, param, query, mustBeInvalid, oversize: query.length > MAX_REQUEST_LINE });

  add('baseline', build(new Map()), undefined, false);
  for (const property of properties) {
    const isRequired = required.includes(property.name);
    for (const value of valuesFor(property, limits)) {
      const decoded = decodeComponent(value.raw);
      const refused = value.mustBeInvalid === true || contractRefuses(property, decoded, isRequired);
      add(`${property.name}=${value.label}`, build(new Map([[property.name, value.raw]])), property.name, refused);
    }
    const seed = baseline.get(property.name) ?? encodeURIComponent(seedsOf(property.schema)[0] ?? 'x');
    add(`${property.name} repeated`, build(new Map([[property.name, null]]), [`${property.name}=${seed}`, `${property.name}=${seed}`]), property.name, true);
    add(`${property.name} repeated, second empty`, build(new Map([[property.name, null]]), [`${property.name}=${seed}`, `${property.name}=`]), property.name, true);
    add(`${property.name} without =`, build(new Map([[property.name, null]]), [property.name]), property.name, contractRefuses(property, '', isRequired));
    add(`${property.name} absent`, build(new Map([[property.name, null]])), property.name, isRequired);
    add(`${property.name} with a percent-encoded name`, build(new Map([[property.name, null]]), [`${fullyEncoded(property.name)}=${seed}`]), property.name, false);
    // Names the server must treat as unknown (and so ignore): brackets, case and padding variants.
    for (const variant of [`${property.name}[]`, `${property.name}[0]`, `${property.name}.x`, property.name.toUpperCase(), `${property.name}%20`, `${property.name}%00`]) {
      if (variant === property.name) continue;
      add(`unknown ${variant}`, build(new Map(), [`${variant}=${seed}`]), undefined, false);
    }
  }
  for (const name of UNKNOWN_NAMES) {
    for (const value of ['x', '', '%00', '%zz', '1']) add(`unknown ${name.slice(0, 40)}=${value}`, build(new Map(), [`${name}=${value}`]), undefined, false);
  }
  add('empty name', build(new Map(), ['=x']), undefined, false);
  add('stray ampersands', `&&${build(new Map())}&&`, undefined, false);
  add('100 unknown parameters', build(new Map(), Array.from({ length: 100 }, (_, i) => `p${i}=${i}`)), undefined, false);
  add('nothing at all', '', required[0], required.length > 0);
  return cases;
}
