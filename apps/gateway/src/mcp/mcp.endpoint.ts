/**
 * `/mcp` over Streamable HTTP (protocol 2025-11-25), on the gateway's Fastify. The route lives in its own Fastify
 * scope so the request body reaches the MCP SDK untouched: malformed JSON, wrong content types and oversize bodies
 * are answered as the MCP transport specifies (JSON-RPC errors), not by the REST error filter.
 *
 * Before any MCP exchange, as HTTP: Origin validation (403 for an origin outside MCP_ALLOWED_ORIGINS; no Origin
 * passes), then the same API-key authentication as REST (401 with WWW-Authenticate, 403 for a suspended account).
 * Stateless: no session id, POST only (GET and DELETE → 405: no server-initiated stream, no session to end).
 * The OAuth discovery documents are a real 404 — Trawl authenticates by API key, and some clients switch to OAuth
 * (dropping the configured key header) when discovery answers.
 */
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AuthService, RequestLogWriter } from '#billing';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { ErrorCode, TrawlError, httpStatusOf } from '#contracts';
import { apiKeyFrom } from '../http/api-key.guard.js';
import { callerOf } from '../http/principal.js';
import { publicBase } from '../http/public-base.js';
import { McpService } from './mcp.service.js';

const MCP_BODY_LIMIT = 1024 * 1024;
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host', 'upgrade', 'expect']);
const CORS_ALLOW_HEADERS = 'content-type, accept, authorization, x-api-key, mcp-protocol-version, mcp-session-id, last-event-id';
export const OAUTH_DISCOVERY_PATHS = [
  '/.well-known/oauth-authorization-server',
  '/.well-known/oauth-protected-resource',
  '/.well-known/openid-configuration',
];

@Injectable()
export class McpEndpoint implements OnModuleInit {
  private readonly logger = new Logger('Mcp');
  private readonly allowedOrigins: Set<string>;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly auth: AuthService,
    private readonly log: RequestLogWriter,
    private readonly mcp: McpService,
    @Inject(TRAWL_CONFIG) private readonly config: TrawlConfig,
  ) {
    this.allowedOrigins = new Set(config.MCP_ALLOWED_ORIGINS);
  }

  async onModuleInit(): Promise<void> {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    await fastify.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: MCP_BODY_LIMIT }, (_request, body, done) => done(null, body));
      scope.setErrorHandler((error: { statusCode?: number }, request, reply) => {
        const status = error.statusCode;
        if (status === 413) return void reply.code(413).send(rpcError('Request body too large', -32600));
        if (status !== undefined && status >= 400 && status < 500) return void reply.code(400).send(rpcError('Malformed request', -32600));
        this.logger.error({ err: error, reqId: request.id }, 'Unhandled error on /mcp');
        void reply.code(500).send(rpcError('Internal error', -32603));
      });
      scope.route({
        method: ['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS'],
        url: '/mcp',
        handler: (request, reply) => this.handle(request, reply),
      });
      for (const path of OAUTH_DISCOVERY_PATHS) {
        for (const url of [path, `${path}/*`]) {
          scope.get(url, (_request, reply) =>
            reply.code(404).send({
              error: { code: ErrorCode.NOT_FOUND, message: 'Trawl has no OAuth: send the API key as x-api-key or Authorization: Bearer' },
            }),
          );
        }
      }
    });
  }

  private async handle(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const origin = request.headers.origin;
    if (origin !== undefined) {
      if (!this.originAllowed(origin)) {
        return this.refuse(request, reply, new TrawlError(ErrorCode.FORBIDDEN, `Origin ${origin.slice(0, 200)} may not call /mcp (see MCP_ALLOWED_ORIGINS)`));
      }
      void reply.header('access-control-allow-origin', origin).header('vary', 'Origin').header('access-control-expose-headers', 'mcp-session-id, mcp-protocol-version');
      if (request.method === 'OPTIONS') {
        return reply
          .code(204)
          .header('access-control-allow-methods', 'POST, GET, DELETE')
          .header('access-control-allow-headers', CORS_ALLOW_HEADERS)
          .header('access-control-max-age', '600')
          .send();
      }
    }
    let principal;
    let sentKey = false;
    try {
      const apiKey = apiKeyFrom(request.headers);
      sentKey = apiKey !== undefined;
      principal = await this.auth.authenticate(apiKey);
    } catch (error) {
      if (!(error instanceof TrawlError)) this.logger.error({ err: error, reqId: request.id }, 'Authentication failed unexpectedly on /mcp');
      return this.refuse(request, reply, TrawlError.from(error), sentKey);
    }
    if (request.method !== 'POST') {
      return reply
        .code(405)
        .header('allow', 'POST')
        .send(rpcError('Method not allowed: this server is stateless; send every JSON-RPC message by POST (no SSE stream, no session to delete)', -32000));
    }
    const server = this.mcp.serverFor(callerOf(request, principal), publicBase(this.config, request));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      const response = await transport.handleRequest(toWebRequest(request));
      void reply.code(response.status);
      response.headers.forEach((value, name) => void reply.header(name, value));
      const text = await response.text();
      return await reply.send(text === '' ? undefined : text);
    } finally {
      await server.close();
    }
  }

  private originAllowed(origin: string): boolean {
    try {
      return this.allowedOrigins.has(new URL(origin).origin);
    } catch {
      return false; // "null" and other opaque origins
    }
  }

  /** An HTTP error before any MCP exchange, in the REST error shape, logged like a refused REST request. */
  private refuse(request: FastifyRequest, reply: FastifyReply, error: TrawlError, sentKey = false): FastifyReply {
    const status = httpStatusOf(error.code);
    this.log.write({
      id: request.id,
      accountId: null,
      endpoint: '/mcp',
      status,
      credits: 0,
      durationMs: Math.round(reply.elapsedTime),
      errorCode: error.code,
      createdAt: new Date(),
    });
    if (status === 401) {
      // RFC 6750 §3: no error code when no credentials were sent.
      void reply.header('www-authenticate', sentKey ? 'Bearer realm="trawl", error="invalid_token"' : 'Bearer realm="trawl"');
    }
    return reply.code(status).send({ error: { code: error.code, message: error.message } });
  }
}

function rpcError(message: string, code: number) {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}

/** The Fastify request as a web-standard Request, body untouched (the SDK parses and validates it). */
function toWebRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  // Trawl only ever answers JSON, so a client that accepts JSON (or anything) is served even if it did not also
  // list text/event-stream as the specification asks; the SDK transport would refuse it with 406.
  const accept = headers.get('accept');
  if (!accept || (!accept.includes('text/event-stream') && /(application\/json|application\/\*|\*\/\*)/.test(accept))) {
    headers.set('accept', 'application/json, text/event-stream');
  }
  const body = typeof request.body === 'string' ? request.body : undefined;
  return new Request(`http://${request.headers.host ?? 'localhost'}${request.url}`, { method: request.method, headers, body });
}
