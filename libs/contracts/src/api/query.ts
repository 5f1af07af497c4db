/**
 * The query-string layer over the API schemas. Each endpoint's parameters are one zod object with real types
 * (booleans, integers, lists of strings) — the same schema MCP tool inputs and the OpenAPI document use. A REST
 * request's parameters all arrive as strings; `parseQuery` coerces them by the type the schema declares, strictly:
 * a boolean is exactly `true` or `false`, an integer is digits, a list is comma-separated. An empty value (`gl=`,
 * `page=`, `markdown=`) of a parameter that has a default means that default, as if it were not sent: the contract is
 * silent on empty values, and a well-formed request is not refused for form's sake. Every failure is a 400
 * INVALID_PARAMETER whose message names the parameter, before anything is charged.
 */
import { z } from 'zod';
import { ErrorCode } from '../error-codes.js';
import { TrawlError } from '../trawl-error.js';

type WireKind = 'boolean' | 'integer' | 'list' | 'string';

/** The JSON type a schema field takes, seen through defaults, optionals and transforms. */
function wireKind(field: z.ZodType): WireKind {
  let t: z.ZodType | undefined = field;
  while (t) {
    const def = t.def as { type: string; innerType?: z.ZodType; in?: z.ZodType; format?: string; checks?: unknown[] };
    if (def.type === 'boolean') return 'boolean';
    if (def.type === 'number') return 'integer';
    if (def.type === 'array') return 'list';
    if (def.type === 'string' || def.type === 'enum') return 'string';
    t = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
  }
  return 'string';
}

/** Optional fields whose default the schema applies after the fact (in an object-level transform). */
const DEFAULTED_ELSEWHERE = new WeakSet<z.ZodType>();

/** Marks an optional field as having a default applied elsewhere in its schema: sent empty, it is absent. */
export function defaultedElsewhere<T extends z.ZodType>(field: T): T {
  DEFAULTED_ELSEWHERE.add(field);
  return field;
}

/** Whether a schema field has a default (seen through optionals, transforms and pipes). */
function hasDefault(field: z.ZodType): boolean {
  if (DEFAULTED_ELSEWHERE.has(field)) return true;
  let t: z.ZodType | undefined = field;
  while (t) {
    const def = t.def as { type: string; innerType?: z.ZodType; in?: z.ZodType };
    if (def.type === 'default' || def.type === 'prefault') return true;
    t = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
  }
  return false;
}

/**
 * A query string's values without the empty ones (blank strings) of fields that have a default: those fields take
 * their default. Typed input (MCP arguments, JSON bodies) keeps its schema: there `""` is a value of its own.
 */
function withoutEmptyDefaults(schema: z.ZodType, input: unknown): unknown {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return input;
  const shape = schemaShape(schema);
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input as Record<string, unknown>)) {
    const blank = typeof value === 'string' && value.trim() === '';
    const field = Object.hasOwn(shape, name) ? shape[name] : undefined;
    if (blank && field && hasDefault(field)) continue;
    kept[name] = value;
  }
  return kept;
}

function invalid(message: string): never {
  throw new TrawlError(ErrorCode.INVALID_PARAMETER, message);
}

/** One query-string value → the type the schema expects (or a 400 naming the parameter). */
function coerce(name: string, value: string, kind: WireKind): unknown {
  switch (kind) {
    case 'boolean':
      if (value === 'true') return true;
      if (value === 'false') return false;
      return invalid(`${name} must be true or false`);
    case 'integer':
      // Not digits: left as text for the schema's own message (which says the range).
      return /^-?\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : value;
    case 'list': {
      const parts = value.split(',').map((p) => p.trim());
      if (parts.every((p) => p === '')) return [];
      if (parts.some((p) => p === '')) invalid(`${name} has an empty entry (two commas in a row, or a trailing comma)`);
      return parts;
    }
    default:
      return value;
  }
}

/**
 * Validates typed input (MCP arguments, or coerced query values) with an endpoint schema; the first issue is the 400.
 * `whole` names the input in a message about the input as a whole (a JSON body that is not an object).
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, whole = 'query'): z.output<S> {
  const parsed = schema.safeParse(input ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const param = issue.path.join('.') || whole;
    const message = issue.message.startsWith(param) ? issue.message : `${param}: ${issue.message}`;
    invalid(message);
  }
  return parsed.data;
}

/** The fields of an endpoint schema (an object, possibly followed by a cross-field transform). */
export function schemaShape(schema: z.ZodType): Record<string, z.ZodType> {
  let t: z.ZodType | undefined = schema;
  while (t) {
    const def = t.def as { type: string; shape?: Record<string, z.ZodType>; in?: z.ZodType; innerType?: z.ZodType };
    if (def.type === 'object') return def.shape ?? {};
    t = def.type === 'pipe' ? def.in : def.innerType;
  }
  return {};
}

/** Parses a raw query object (every value a string) with an endpoint schema. */
export function parseQuery<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const query = withoutEmptyDefaults(schema, raw ?? {}) as Record<string, unknown>;
  const shape = schemaShape(schema);
  const input: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value)) invalid(`${name} was given more than once`);
    // Own fields only: `constructor`, `toString`, `__proto__` … are unknown parameters, not Object.prototype members.
    const field = Object.hasOwn(shape, name) ? shape[name] : undefined;
    input[name] = field && typeof value === 'string' ? coerce(name, value, wireKind(field)) : value;
  }
  return parseInput(schema, input);
}

/** A boolean parameter with its default, as the contract writes them. */
export const flag = (fallback: boolean) => z.boolean().default(fallback);

/** An integer parameter in [min, max] with a default. */
export const integer = (name: string, min: number, max: number, fallback: number) =>
  z
    .number({ error: `${name} must be an integer from ${min} to ${max}` })
    .int(`${name} must be an integer from ${min} to ${max}`)
    .min(min, `${name} must be an integer from ${min} to ${max}`)
    .max(max, `${name} must be an integer from ${min} to ${max}`)
    .default(fallback);
