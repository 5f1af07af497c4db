/**
 * The console's JSON endpoints in the OpenAPI document (docs/console.md has the prose): query parameters and
 * bodies from the same zod schemas the gateway validates with. Tagged `console`, so the playground, which builds a
 * form per data endpoint from this document, leaves them out.
 */
import { createKeyBodySchema, requestsQuerySchema, signInBodySchema, toJsonSchema, usageQuerySchema, type JsonSchema } from '#contracts';

const ERROR = { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
const json = (description: string) => ({ description, content: { 'application/json': { schema: { type: 'object' } } } });
const sessionOrKey = [{ apiKey: [] }, { bearer: [] }, { consoleSession: [] }];
const sessionOrAdmin = [{ bearer: [] }, { consoleSession: [] }];

function queryParameters(schema: Parameters<typeof toJsonSchema>[0]) {
  const json = toJsonSchema(schema, 'input');
  return Object.entries((json.properties ?? {}) as Record<string, JsonSchema>).map(([name, property]) => ({ name, in: 'query', required: false, schema: property }));
}

const body = (schema: Parameters<typeof toJsonSchema>[0]) => ({ required: true, content: { 'application/json': { schema: toJsonSchema(schema, 'input') } } });
const op = (summary: string, extra: Record<string, unknown>, ok = json('Success')) => ({
  tags: ['console'],
  summary,
  ...extra,
  responses: { 200: ok, 400: ERROR, 401: ERROR, 403: ERROR },
});

export function consolePaths(): Record<string, unknown> {
  return {
    '/console/session': {
      post: op('Sign in to the console (an API key, a one-time link, or ADMIN_TOKEN); sets the session cookie', { security: [], requestBody: body(signInBodySchema) }),
      get: op('The current console session and its CSRF token', { security: [{ consoleSession: [] }] }),
      delete: op('Sign out (x-csrf-token)', { security: [{ consoleSession: [] }] }, { description: 'Signed out' } as never),
    },
    '/account': { get: op('The account: plan, balance, period, concurrency in use, this period’s calls and credits', { security: sessionOrKey }) },
    '/account/usage': { get: op('Calls, errors and credits by UTC day and endpoint (a crawl\'s pages add their credits to /crawls or /batches)', { security: sessionOrKey, parameters: queryParameters(usageQuerySchema) }) },
    '/account/requests': { get: op('The request log, newest first, one page', { security: sessionOrKey, parameters: queryParameters(requestsQuerySchema) }) },
    '/account/requests/{id}': {
      get: op('One call, with a crawl’s per-URL outcomes', { security: sessionOrKey, parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }] }),
    },
    '/account/crawls': { get: op('Site crawls and batches still queued or running, with their progress', { security: sessionOrKey }) },
    '/account/keys': {
      get: op('The account’s API keys (prefixes only)', { security: sessionOrKey }),
      post: op('Create a key: the only response that carries it', { security: sessionOrKey, requestBody: body(createKeyBodySchema) }),
    },
    '/account/keys/{id}/revoke': {
      post: op('Revoke a key, at once on every gateway', { security: sessionOrKey, parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }] }),
    },
    '/admin/usage': { get: op('Usage across accounts (operator)', { security: sessionOrAdmin, parameters: queryParameters(usageQuerySchema) }) },
    '/admin/health': { get: op('Workers, queues and proxy pools (operator)', { security: sessionOrAdmin }) },
  };
}

export const CONSOLE_SESSION_SCHEME = {
  type: 'apiKey',
  in: 'cookie',
  name: 'trawl_console',
  description: 'The console session (POST /console/session); mutations also need x-csrf-token',
};
