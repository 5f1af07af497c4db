/**
 * Forms from the OpenAPI document (`/openapi.json`, built from the same zod schemas the gateway validates with):
 * one field per query parameter, with its type, default, allowed values and bounds, and the checks the browser can
 * make before sending. The gateway still validates everything; these only say it sooner.
 */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  format?: string;
}

export interface Field {
  name: string;
  required: boolean;
  description: string;
  kind: 'boolean' | 'enum' | 'integer' | 'number' | 'list' | 'text';
  schema: JsonSchema;
  options: string[];
  default: string;
}

export interface Operation {
  path: string;
  summary: string;
  fields: Field[];
}

interface OpenApiDocument {
  paths: Record<string, { get?: { summary?: string; tags?: string[]; parameters?: Array<{ name: string; in?: string; required?: boolean; description?: string; schema?: JsonSchema }> } }>;
}

const typeOf = (s: JsonSchema) => (Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type);

export function fieldOf(p: { name: string; required?: boolean; description?: string; schema?: JsonSchema }): Field {
  const schema = p.schema ?? {};
  const type = typeOf(schema);
  const kind: Field['kind'] = schema.enum ? 'enum' : type === 'boolean' ? 'boolean' : type === 'integer' ? 'integer' : type === 'number' ? 'number' : type === 'array' ? 'list' : 'text';
  return {
    name: p.name,
    required: p.required ?? false,
    description: p.description ?? '',
    kind,
    schema,
    options: (schema.enum ?? []).map(String),
    default: schema.default === undefined ? '' : Array.isArray(schema.default) ? schema.default.join(',') : String(schema.default),
  };
}

/**
 * The GET operations with query parameters only: the data endpoints a key can call (the console's own are tagged; a
 * read of a crawl by its id has a path parameter, and is no call to try out).
 */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  return Object.entries(doc.paths)
    .filter(([, item]) => item.get?.parameters?.length && !item.get.tags?.includes('console') && item.get.parameters.every((p) => (p.in ?? 'query') === 'query'))
    .map(([path, item]) => ({ path, summary: item.get!.summary ?? '', fields: item.get!.parameters!.map(fieldOf) }));
}

/** What is wrong with one value, in the words the gateway would use, or null. */
export function problemOf(field: Field, raw: string): string | null {
  const value = raw.trim();
  if (value === '') return field.required ? `${field.name} is required` : null;
  const s = field.schema;
  if (field.kind === 'enum' && !field.options.includes(value)) return `${field.name} must be one of ${field.options.join(', ')}`;
  if (field.kind === 'integer' || field.kind === 'number') {
    const num = Number(value);
    if (!Number.isFinite(num) || (field.kind === 'integer' && !Number.isInteger(num))) return `${field.name} must be ${field.kind === 'integer' ? 'an integer' : 'a number'}`;
    if (s.minimum !== undefined && num < s.minimum) return `${field.name} must be at least ${s.minimum}`;
    if (s.maximum !== undefined && num > s.maximum) return `${field.name} must be at most ${s.maximum}`;
  }
  if (field.kind === 'list') {
    const items = value.split(',').map((v) => v.trim()).filter(Boolean);
    if (s.maxItems !== undefined && items.length > s.maxItems) return `${field.name} takes at most ${s.maxItems} values`;
    const item = s.items ?? {};
    for (const one of items) {
      if (item.format === 'uri' || field.name === 'urls') {
        if (!/^https?:\/\/[^\s/]+/i.test(one)) return `${field.name}: "${one.slice(0, 80)}" is not an http(s) URL`;
      }
      if (item.maxLength !== undefined && one.length > item.maxLength) return `${field.name}: a value is longer than ${item.maxLength} characters`;
    }
  }
  if (field.kind === 'text') {
    if (s.minLength !== undefined && value.length < s.minLength) return `${field.name} must be at least ${s.minLength} characters`;
    if (s.maxLength !== undefined && value.length > s.maxLength) return `${field.name} must be at most ${s.maxLength} characters`;
    if (s.pattern && !new RegExp(s.pattern).test(value)) return `${field.name} has the wrong format`;
  }
  return null;
}

/** The query string of the call: only values that differ from the parameter's default (and every required one). */
export function queryOf(fields: Field[], values: Record<string, string>): string {
  const search = new URLSearchParams();
  for (const f of fields) {
    const value = (values[f.name] ?? '').trim();
    if (value === '' || (!f.required && value === f.default)) continue;
    search.set(f.name, f.kind === 'list' ? value.split(',').map((v) => v.trim()).filter(Boolean).join(',') : value);
  }
  return search.toString();
}
