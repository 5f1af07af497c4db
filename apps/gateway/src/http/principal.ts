/**
 * Who is calling, as authenticated by ApiKeyGuard for this HTTP request. Identity is the only thing kept per HTTP
 * request; everything about metering belongs to the call (CallContext in libs/billing).
 */
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '#billing';

const PRINCIPALS = new WeakMap<FastifyRequest, Principal>();

export function setPrincipal(request: FastifyRequest, principal: Principal): void {
  PRINCIPALS.set(request, principal);
}

export function principalOf(request: FastifyRequest): Principal | undefined {
  return PRINCIPALS.get(request);
}

/** The authenticated caller of a route guarded by ApiKeyGuard. */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext) => {
  const principal = principalOf(context.switchToHttp().getRequest<FastifyRequest>());
  if (!principal) throw new Error('CurrentPrincipal used on a route without ApiKeyGuard');
  return principal;
});
