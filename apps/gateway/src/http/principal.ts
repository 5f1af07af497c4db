/**
 * Who is calling, as authenticated by ApiKeyGuard for this HTTP request, with the request's id (the Caller the
 * services pass to the call lifecycle, for the request log). Identity is the only thing kept per HTTP request;
 * everything about metering belongs to the call (CallContext in libs/billing).
 */
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Caller, Principal } from '#billing';

const PRINCIPALS = new WeakMap<FastifyRequest, Caller>();

/**
 * The authenticated principal as this request's caller: a copy (the principal is cached and shared by the key's
 * requests) carrying the request's id for the request log.
 */
export function callerOf(request: FastifyRequest, principal: Principal): Caller {
  return { ...principal, requestId: request.id };
}

export function setPrincipal(request: FastifyRequest, principal: Caller): void {
  PRINCIPALS.set(request, principal);
}

export function principalOf(request: FastifyRequest): Caller | undefined {
  return PRINCIPALS.get(request);
}

/** The authenticated caller of a route guarded by ApiKeyGuard. */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext) => {
  const principal = principalOf(context.switchToHttp().getRequest<FastifyRequest>());
  if (!principal) throw new Error('CurrentPrincipal used on a route without ApiKeyGuard');
  return principal;
});
