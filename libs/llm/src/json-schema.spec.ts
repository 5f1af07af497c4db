import { describe, expect, it } from '@jest/globals';
import { compileSchema, SCHEMA_LIMITS } from './json-schema.js';
import { LlmError } from './llm-error.js';

function refusal(schema: unknown): string {
  try {
    compileSchema(schema);
  } catch (e) {
    expect(e).toBeInstanceOf(LlmError);
    expect((e as LlmError).code).toBe('LLM_INVALID_SCHEMA');
    return (e as LlmError).message;
  }
  throw new Error('schema accepted');
}

const product = {
  type: 'object',
  properties: { name: { type: 'string' }, price: { type: 'number', minimum: 0 }, email: { type: 'string', format: 'email' } },
  required: ['name', 'price'],
  additionalProperties: false,
};

describe('compileSchema', () => {
  it('validates answers against a 2020-12 schema (the default), formats included', () => {
    const { check } = compileSchema(product);
    expect(check({ name: 'Kettle', price: 20 })).toEqual([]);
    expect(check({ name: 'Kettle', price: -1, email: 'not-an-email', extra: 1 })).toEqual([
      '(root) must NOT have additional properties',
      '/price must be >= 0',
      '/email must match format "email"',
    ]);
  });

  it('takes draft-07 schemas by their $schema (definitions, tuple items)', () => {
    const { check } = compileSchema({ $schema: 'http://json-schema.org/draft-07/schema#', definitions: { n: { type: 'number' } }, type: 'array', items: [{ $ref: '#/definitions/n' }] });
    expect(check([1])).toEqual([]);
    expect(check(['x'])).toEqual(['/0 must be number']);
    expect(compileSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema', $defs: { n: { type: 'number' } }, prefixItems: [{ $ref: '#/$defs/n' }] }).check(['x'])).toEqual(['/0 must be number']);
  });

  it('refuses what is not a schema, an unsupported draft, and references it would have to fetch or cannot resolve', () => {
    expect(refusal([])).toMatch(/JSON Schema object/);
    expect(refusal('{"type":"object"}')).toMatch(/JSON Schema object/);
    expect(refusal({ type: 'strnig' })).toMatch(/not a valid JSON Schema: \/type/);
    expect(refusal({ $schema: 'http://json-schema.org/draft-04/schema#' })).toMatch(/2020-12 or draft-07/);
    expect(refusal({ $ref: 'https://example.com/schema.json' })).toMatch(/cannot be compiled: can't resolve reference https:\/\/example.com/);
    expect(refusal({ properties: { a: { $ref: '#/$defs/missing' } } })).toMatch(/can't resolve reference/);
  });

  it('refuses schemas that are too large or too deep', () => {
    const big = { type: 'object', properties: Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`field${i}`, { type: 'string' }])) };
    expect(refusal(big)).toMatch(new RegExp(`larger than ${SCHEMA_LIMITS.maxBytes} bytes`));
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 20; i++) deep = { type: 'object', properties: { a: deep } };
    expect(refusal(deep)).toMatch(/nests deeper than/);
  });

  it('sends regular expressions to the model but never runs one from a request', () => {
    // A pattern that backtracks exponentially: enforced, this check would not end.
    const { check, schema } = compileSchema({ type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } } });
    expect(check({ code: `${'a'.repeat(40)}!` })).toEqual([]);
    expect(JSON.stringify(schema)).toContain('(a+)+');
    expect(refusal({ type: 'object', patternProperties: { '^x': { type: 'string' } } })).toMatch(/patternProperties/);
  });

  it('compiles the same $id again without a clash (nothing is kept between requests)', () => {
    const withId = { $id: 'https://example.com/product', ...product };
    compileSchema(withId);
    expect(compileSchema(withId).check({ name: 'a', price: 1 })).toEqual([]);
  });
});
