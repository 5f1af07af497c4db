/**
 * The JSON Schema a request brings, checked before anything is sent: size and nesting bounded, draft 2020-12
 * (the default) or draft-07 by its `$schema`, valid against the draft's meta-schema, every `$ref` resolvable inside
 * the schema (nothing is ever fetched). Compiled with Ajv into the validator the model's answer must pass.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { LlmError, LlmErrorCode } from './llm-error.js';

export const SCHEMA_LIMITS = {
  /** Bytes of the schema as JSON. */
  maxBytes: 16_384,
  /** Nesting of objects and arrays in the schema document (about half as many levels of properties). */
  maxDepth: 24,
  /** Validation errors quoted back to the model or the caller. */
  maxErrors: 10,
} as const;

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

const OPTIONS = { strict: false, allErrors: true, logger: false, validateFormats: true } as const;
const draft2020 = addFormats(new Ajv2020(OPTIONS) as unknown as Ajv);
const draft07 = addFormats(new Ajv(OPTIONS));

export type JsonSchema = Record<string, unknown>;

export interface CompiledSchema {
  schema: JsonSchema;
  /** Errors of `value` against the schema, as short lines; empty when it is valid. */
  check(value: unknown): string[];
}

function invalid(message: string): LlmError {
  return new LlmError(LlmErrorCode.INVALID_SCHEMA, message);
}

function depthOf(value: unknown, depth = 0): number {
  if (depth > SCHEMA_LIMITS.maxDepth) return depth;
  if (Array.isArray(value)) return value.reduce<number>((max, v) => Math.max(max, depthOf(v, depth + 1)), depth + 1);
  if (value !== null && typeof value === 'object') return Object.values(value).reduce<number>((max, v) => Math.max(max, depthOf(v, depth + 1)), depth + 1);
  return depth;
}

/**
 * A regular expression from a request would run on every answer, and a bad one backtracks for minutes: `pattern` is
 * sent to the model but not enforced, and `patternProperties` (which cannot be dropped without changing what is
 * valid) is refused.
 */
function withoutPatterns(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutPatterns);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === 'patternProperties') throw invalid('schema: "patternProperties" is not supported');
    if (key === 'pattern' && typeof v === 'string') continue;
    out[key] = withoutPatterns(v);
  }
  return out;
}

function ajvFor(schema: JsonSchema): Ajv {
  const declared = schema.$schema;
  if (declared === undefined || (typeof declared === 'string' && declared.includes('2020-12'))) return draft2020;
  if (typeof declared === 'string' && declared.includes('draft-07')) return draft07;
  throw invalid('schema: "$schema" must name JSON Schema draft 2020-12 or draft-07 (or be left out for 2020-12)');
}

export function describeErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).slice(0, SCHEMA_LIMITS.maxErrors).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`.trim());
}

/** Checks and compiles a request's schema; throws LLM_INVALID_SCHEMA naming what is wrong. */
export function compileSchema(input: unknown): CompiledSchema {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw invalid('schema must be a JSON Schema object');
  const text = JSON.stringify(input);
  if (Buffer.byteLength(text) > SCHEMA_LIMITS.maxBytes) throw invalid(`schema is larger than ${SCHEMA_LIMITS.maxBytes} bytes`);
  if (depthOf(input) > SCHEMA_LIMITS.maxDepth) throw invalid(`schema nests deeper than ${SCHEMA_LIMITS.maxDepth} levels`);
  const schema = input as JsonSchema;
  const ajv = ajvFor(schema);
  const forValidation = withoutPatterns(JSON.parse(text)) as JsonSchema;
  if (!ajv.validateSchema(forValidation)) throw invalid(`schema is not a valid JSON Schema: ${describeErrors(ajv.errors).join('; ')}`);
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(forValidation);
  } catch (error) {
    throw invalid(`schema cannot be compiled: ${(error as Error).message.slice(0, 300)}`);
  } finally {
    // Ajv keeps every compiled schema (and its $id) otherwise: one per request would grow without end.
    ajv.removeSchema(forValidation);
  }
  return {
    schema,
    check: (value) => (validate(value) ? [] : describeErrors(validate.errors)),
  };
}
