/**
 * What the API reference knows about an endpoint beyond its zod schema: a summary, per-parameter documentation
 * (what zod's JSON Schema cannot see through transforms: enums, defaults, patterns), the response schema, costs and
 * error statuses. The OpenAPI document and the MCP tool input schemas are both built from these, so a parameter is
 * described once. Most endpoints are a GET with query parameters; the crawl jobs and `/map` take a JSON body
 * (`body: true`), and some routes have path parameters.
 */
import { z } from 'zod';
import type { ErrorCode } from '../error-codes.js';
import type { CrawlJobLimits } from './crawl-jobs.js';
import { schemaShape } from './query.js';

/** Deployment limits that shape a schema (e.g. how many URLs one /crawl takes). */
export interface ApiLimits {
  crawlMaxUrls: number;
  headfulMaxUrls: number;
  /** The bounds of site crawls and batches (CRAWL_JOB_MAX_PAGES, BATCH_MAX_URLS, CRAWL_JOB_MAX_CONCURRENCY). */
  crawlJobs: CrawlJobLimits;
  /** MAP_MAX_LINKS: the largest `limit` of `/map`. */
  mapMaxLinks: number;
  /** PAGE_CACHE_MAX_AGE_MS in seconds: the largest `max_age` of `/crawl`. */
  pageCacheMaxAgeS: number;
}

export interface ParamDoc {
  description: string;
  /** JSON Schema keywords the zod schema cannot express through its transforms. */
  schema?: Record<string, unknown> | ((limits: ApiLimits) => Record<string, unknown>);
}

export type ApiMethod = 'get' | 'post' | 'delete';

export interface ApiEndpoint {
  /** The route as OpenAPI writes it: path parameters in braces (`/crawls/{id}`). */
  path: string;
  /** GET when absent. */
  method?: ApiMethod;
  operationId: string;
  summary: string;
  /** What it is for, what it costs, when to prefer it. */
  description: string;
  /** The query parameters; with `body`, the fields of the JSON body. */
  params: (limits: ApiLimits) => z.ZodType;
  /** `params` travel as a JSON request body, not in the query string. */
  body?: boolean;
  /** The path parameters (always strings, always required), by name: their description. */
  pathParams?: Record<string, string>;
  paramDocs: Record<string, ParamDoc>;
  response: z.ZodType;
  /** The success status when not 200 (201: something was created). */
  status?: number;
  /** The success body's media type when not JSON (NDJSON: each line one `response`). */
  mediaType?: string;
  /** Error statuses besides 401 (every endpoint) and 500. */
  errors: Array<{ status: number; codes: ErrorCode[]; when: string }>;
}

/** `GET /crawl`, `POST /crawls`: how the reference names an endpoint (its docs table marker, its heading). */
export function endpointKey(endpoint: Pick<ApiEndpoint, 'method' | 'path'>): string {
  return !endpoint.method || endpoint.method === 'get' ? endpoint.path : `${endpoint.method.toUpperCase()} ${endpoint.path}`;
}

/** Parameters without any: a route that takes nothing but its path (and the key). */
export const noParams = () => z.strictObject({});

export type JsonSchema = Record<string, unknown>;

const SAFE_INT_BOUNDS = [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];

/** zod → JSON Schema (2020-12, no `$schema` key, without zod's ±2^53 integer bounds). */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return stripSafeIntBounds(json) as JsonSchema;
}

function stripSafeIntBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripSafeIntBounds);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if ((k === 'minimum' || k === 'maximum') && SAFE_INT_BOUNDS.includes(v as number)) continue;
    out[k] = stripSafeIntBounds(v);
  }
  return out;
}

/** The endpoint's parameters as one JSON Schema object (typed input: MCP arguments), documented per property. */
export function paramsJsonSchema(endpoint: ApiEndpoint, limits: ApiLimits): JsonSchema {
  const json = toJsonSchema(endpoint.params(limits), 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  for (const name of Object.keys(schemaShape(endpoint.params(limits)))) {
    const doc = endpoint.paramDocs[name];
    if (!doc) throw new Error(`${endpoint.path}: parameter ${name} has no documentation`);
    const extra = typeof doc.schema === 'function' ? doc.schema(limits) : doc.schema;
    properties[name] = { ...properties[name], ...extra, description: doc.description };
  }
  return { ...json, properties };
}
