/**
 * Field shapes as the specification writes them (§2): a name, a JSON type, and when the field is present. A check
 * reports every mismatch of a response at once, naming the field path, so a failure reads like the spec's table.
 */
import { expect } from '@jest/globals';

export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'string|null';

/** `always`: present in every answer; `maybe`: present or not (the spec: "only when…"); `never`: absent. */
export type Presence = 'always' | 'maybe' | 'never';

export interface FieldRule {
  type: JsonType;
  presence: Presence;
}

export type Shape = Record<string, FieldRule>;

export const always = (type: JsonType): FieldRule => ({ type, presence: 'always' });
export const maybe = (type: JsonType): FieldRule => ({ type, presence: 'maybe' });
export const never = (type: JsonType = 'string'): FieldRule => ({ type, presence: 'never' });

function typeOf(value: unknown): JsonType | 'null' | 'undefined' {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

function matches(rule: JsonType, value: unknown): boolean {
  const actual = typeOf(value);
  if (rule === 'number') return actual === 'number' || actual === 'integer';
  if (rule === 'string|null') return actual === 'string' || actual === 'null';
  return actual === rule;
}

/** Mismatches of `value` against `shape`, as `path: problem` lines (empty when it conforms). */
export function shapeProblems(value: unknown, shape: Shape, path = ''): string[] {
  if (typeOf(value) !== 'object') return [`${path || '(body)'}: expected an object, got ${typeOf(value)}`];
  const record = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const [name, rule] of Object.entries(shape)) {
    const at = path ? `${path}.${name}` : name;
    const present = Object.hasOwn(record, name);
    if (rule.presence === 'never') {
      if (present) problems.push(`${at}: must be absent, is ${JSON.stringify(record[name])?.slice(0, 60)}`);
      continue;
    }
    if (!present) {
      if (rule.presence === 'always') problems.push(`${at}: missing`);
      continue;
    }
    if (!matches(rule.type, record[name])) problems.push(`${at}: expected ${rule.type}, got ${typeOf(record[name])}`);
  }
  return problems;
}

/** Asserts that `value` conforms to `shape` (and each item of `items` to `itemShape`). */
export function expectShape(value: unknown, shape: Shape, path = ''): void {
  expect(shapeProblems(value, shape, path)).toEqual([]);
}

export function expectEach(items: unknown, shape: Shape, path: string): void {
  expect(Array.isArray(items)).toBe(true);
  const problems = (items as unknown[]).flatMap((item, i) => shapeProblems(item, shape, `${path}[${i}]`));
  expect(problems).toEqual([]);
}

/** The error body of §7: `error.code` and `error.message`, both strings. */
export function expectError(res: { status: number; body: any }, status: number, code?: string): void {
  expect({ status: res.status, body: res.body }).toMatchObject({ status, body: { error: { code: expect.any(String), message: expect.any(String) } } });
  if (code) expect(res.body.error.code).toBe(code);
}
