/**
 * The OpenAPI 3.1 document, generated from the API reference in libs/contracts — the same zod schemas REST
 * validates with and MCP tools are described by. Query parameters and JSON request bodies come from the schema shapes
 * (types, defaults, enums, ranges), path parameters from each endpoint's list; responses from the response schemas;
 * errors from each endpoint's error list.
 */
import { apiLimits, type TrawlConfig } from '#config';
import { API_REFERENCE, errorBodySchema, paramsJsonSchema, toJsonSchema, type ApiEndpoint, type ApiLimits, type JsonSchema } from '#contracts';
import { MCP_SERVER_INFO } from '../mcp/mcp.service.js';
import { CONSOLE_SESSION_SCHEME, consolePaths } from './console-paths.js';
import { firecrawlPaths } from './firecrawl-paths.js';

const ERROR_REF = { $ref: '#/components/schemas/Error' };
const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: ERROR_REF } } });

const schemaName = (endpoint: ApiEndpoint, suffix: string) => `${endpoint.operationId[0].toUpperCase()}${endpoint.operationId.slice(1)}${suffix}`;

export function responseSchemaName(endpoint: ApiEndpoint): string {
  return schemaName(endpoint, 'Response');
}

export function requestSchemaName(endpoint: ApiEndpoint): string {
  return schemaName(endpoint, 'Request');
}

function parameters(endpoint: ApiEndpoint, params: JsonSchema) {
  const inPath = Object.entries(endpoint.pathParams ?? {}).map(([name, description]) => ({ name, in: 'path', required: true, description, schema: { type: 'string' } }));
  if (endpoint.body) return inPath;
  const required = new Set((params.required as string[] | undefined) ?? []);
  const inQuery = Object.entries(params.properties as Record<string, JsonSchema>).map(([name, property]) => {
    const { description, ...typed } = property;
    // A parameter that is text or an object (a JSON Schema: an object in MCP arguments) is JSON text in a query string.
    const schema = Array.isArray(typed.anyOf) && typed.anyOf.some((s: JsonSchema) => s.type === 'string') ? { type: 'string', contentMediaType: 'application/json', maxLength: typed.maxLength } : typed;
    return {
      name,
      in: 'query',
      required: required.has(name),
      description,
      schema,
      // Lists travel comma-separated (`urls=a,b`); booleans as exactly true or false.
      ...(schema.type === 'array' ? { style: 'form', explode: false } : {}),
    };
  });
  return [...inPath, ...inQuery];
}

function operation(endpoint: ApiEndpoint, limits: ApiLimits) {
  const params = paramsJsonSchema(endpoint, limits);
  const success = endpoint.status ?? 200;
  const responses: Record<string, unknown> = {
    [success]: {
      description: success === 201 ? 'Created' : 'Success',
      content: { [endpoint.mediaType ?? 'application/json']: { schema: { $ref: `#/components/schemas/${responseSchemaName(endpoint)}` } } },
    },
    401: errorResponse('UNAUTHORIZED: key missing, unknown or revoked; both headers sent with different keys'),
  };
  for (const error of endpoint.errors) {
    const line = `${error.codes.join(', ')}: ${error.when}`;
    const previous = responses[error.status] as { description: string } | undefined;
    responses[error.status] = errorResponse(previous ? `${previous.description}; ${line}` : line);
  }
  const internal = 'INTERNAL: a bug; details are logged, never returned';
  const documented500 = responses[500] as { description: string } | undefined;
  responses[500] = errorResponse(documented500 ? `${documented500.description}; ${internal}` : internal);
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    description: endpoint.description,
    parameters: parameters(endpoint, params),
    ...(endpoint.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${requestSchemaName(endpoint)}` } } } } }
      : {}),
    responses,
  };
}

export function openApiDocument(config: TrawlConfig): Record<string, unknown> {
  const limits = apiLimits(config);
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: Record<string, JsonSchema> = { Error: toJsonSchema(errorBodySchema, 'output') };
  for (const endpoint of API_REFERENCE) {
    paths[endpoint.path] = { ...paths[endpoint.path], [endpoint.method ?? 'get']: operation(endpoint, limits) };
    schemas[responseSchemaName(endpoint)] = toJsonSchema(endpoint.response, 'output');
    if (endpoint.body) schemas[requestSchemaName(endpoint)] = paramsJsonSchema(endpoint, limits);
  }
  paths['/mcp'] = {
    post: {
      operationId: 'mcp',
      summary: 'Model Context Protocol (Streamable HTTP, protocol 2025-11-25, stateless) for AI assistants',
      description:
        'JSON-RPC 2.0 messages by POST (Accept: application/json, text/event-stream). Tools mirror the endpoints above ' +
        'and are metered the same way, each tools/call on its own. GET and DELETE answer 405. See docs/mcp.md.',
      requestBody: { required: true, content: { 'application/json': { schema: { type: ['object', 'array'] } } } },
      responses: {
        200: { description: 'JSON-RPC response(s)', content: { 'application/json': { schema: { type: ['object', 'array'] } } } },
        202: { description: 'Accepted (notifications and responses only)' },
        401: errorResponse('UNAUTHORIZED (with WWW-Authenticate), before any MCP exchange'),
        403: errorResponse('FORBIDDEN: an Origin outside MCP_ALLOWED_ORIGINS; ACCOUNT_SUSPENDED, SUBSCRIPTION_EXPIRED'),
      },
    },
  };
  Object.assign(paths, consolePaths());
  const firecrawl = firecrawlPaths();
  Object.assign(paths, firecrawl.paths);
  Object.assign(schemas, firecrawl.schemas);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Trawl API',
      version: MCP_SERVER_INFO.version,
      description:
        'Self-hosted web search and crawling. The data endpoints take their parameters in the query string; site ' +
        'crawls, batches and /map take a JSON body. The API key goes in `x-api-key` or `Authorization: Bearer`; errors ' +
        'are `{"error": {"code", "message"}}`. Usage is metered in credits against the account’s monthly plan and ' +
        'limited in concurrency per account. The routes under `/v1` and `/v2` (tagged `firecrawl`) are Firecrawl’s API, ' +
        'with its bodies, answers and error shape `{"success": false, "error", "code", "details"}` (docs/firecrawl.md).',
    },
    servers: [{ url: '/' }],
    security: [{ apiKey: [] }, { bearer: [] }],
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        bearer: { type: 'http', scheme: 'bearer', description: 'The API key as a bearer token' },
        consoleSession: CONSOLE_SESSION_SCHEME,
      },
      schemas,
    },
  };
}
