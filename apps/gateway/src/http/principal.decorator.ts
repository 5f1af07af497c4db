import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { outcomeOf } from './request-context.js';

/** The authenticated caller, set by ApiKeyGuard. */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext) => {
  const principal = outcomeOf(context.switchToHttp().getRequest<FastifyRequest>()).principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without ApiKeyGuard');
  return principal;
});

/** The request's outcome record; the lifecycle writes the credits charged into it for the request log. */
export const RequestMeter = createParamDecorator((_data: unknown, context: ExecutionContext) =>
  outcomeOf(context.switchToHttp().getRequest<FastifyRequest>()),
);
