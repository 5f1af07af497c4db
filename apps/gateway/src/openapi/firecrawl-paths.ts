/**
 * The Firecrawl-compatible routes (`/v1`, `/v2`) in the OpenAPI document, from libs/firecrawl's reference: JSON bodies
 * and status queries from the zod schemas the routes parse with, each field described, answers from the answer
 * schemas, and every error in Firecrawl's shape (`FirecrawlError`). Tagged `firecrawl`. Fields a body names only to
 * refuse them (`z.undefined()`: webhook, prompt, …) are left out, where `additionalProperties: false` refuses them too.
 */
import { z } from 'zod';
import { toJsonSchema, type JsonSchema } from '#contracts';
import { FIRECRAWL_REFERENCE, IGNORED_FIELD, SCRAPE_OPTION_DOCS, STATUS_QUERY_DOCS, firecrawlErrorSchema, type FirecrawlRoute } from '#firecrawl';

const ERROR_REF = { $ref: '#/components/schemas/FirecrawlError' };
const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: ERROR_REF } } });
const name = (route: FirecrawlRoute, suffix: string) => `${route.operationId[0].toUpperCase()}${route.operationId.slice(1)}${suffix}`;

const unwrap = (schema: z.ZodType): z.ZodType => (schema instanceof z.ZodOptional ? unwrap(schema.unwrap() as z.ZodType) : schema);

/** The JSON Schema of a body, described field by field (a nested scrapeOptions too); refused fields dropped. */
function describedBody(schema: z.ZodType, json: JsonSchema, docs: Record<string, string>, where: string): JsonSchema {
  const object = unwrap(schema);
  if (!(object instanceof z.ZodObject)) return json;
  const properties = { ...(json.properties as Record<string, JsonSchema>) };
  for (const [field, value] of Object.entries(object.shape as Record<string, z.ZodType>)) {
    const inner = unwrap(value);
    if (inner instanceof z.ZodUndefined) {
      delete properties[field];
      continue;
    }
    const property = field === 'scrapeOptions' ? describedBody(inner, properties[field], SCRAPE_OPTION_DOCS, `${where} scrapeOptions`) : properties[field];
    const description = docs[field] ?? (Object.keys(property).length === 0 ? IGNORED_FIELD : undefined);
    if (!description) throw new Error(`${where}: field ${field} has no documentation`);
    properties[field] = { ...property, description };
  }
  return { ...json, properties };
}

function operation(route: FirecrawlRoute) {
  const responses: Record<string, unknown> = {
    200: { description: 'Success', content: { 'application/json': { schema: { $ref: `#/components/schemas/${name(route, 'Response')}` } } } },
    401: errorResponse('Unauthorized: the key is missing, unknown or revoked'),
  };
  for (const error of route.errors) {
    const previous = responses[error.status] as { description: string } | undefined;
    responses[error.status] = errorResponse(previous ? `${previous.description}; ${error.when}` : error.when);
  }
  const failure = (responses[500] as { description: string } | undefined)?.description;
  responses[500] = errorResponse(`a bug (details are logged, never returned); HEADFUL_UNAVAILABLE for proxy stealth without a headful worker${failure ? `; ${failure}` : ''}`);
  const inPath = Object.entries(route.pathParams ?? {}).map(([param, description]) => ({ name: param, in: 'path', required: true, description, schema: { type: 'string' } }));
  const query = route.query ? (toJsonSchema(route.query, 'input').properties as Record<string, JsonSchema>) : {};
  const inQuery = Object.entries(query).map(([param, schema]) => ({ name: param, in: 'query', required: false, description: STATUS_QUERY_DOCS[param], schema }));
  return {
    operationId: route.operationId,
    tags: ['firecrawl'],
    summary: route.summary,
    description: 'Firecrawl-compatible (docs/firecrawl.md): errors are `{ success: false, error, code?, details? }`.',
    parameters: [...inPath, ...inQuery],
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${name(route, 'Request')}` } } } } } : {}),
    responses,
  };
}

/** The routes' paths and the schemas they refer to. */
export function firecrawlPaths(): { paths: Record<string, Record<string, unknown>>; schemas: Record<string, JsonSchema> } {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: Record<string, JsonSchema> = { FirecrawlError: toJsonSchema(firecrawlErrorSchema, 'output') };
  for (const route of FIRECRAWL_REFERENCE) {
    paths[route.path] = { ...paths[route.path], [route.method]: operation(route) };
    schemas[name(route, 'Response')] = toJsonSchema(route.response, 'output');
    if (route.body) schemas[name(route, 'Request')] = describedBody(route.body, toJsonSchema(route.body, 'input'), route.fieldDocs ?? {}, route.path);
  }
  return { paths, schemas };
}
