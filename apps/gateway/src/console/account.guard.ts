/** Guards /account/…: an API key (scripts) or the console session cookie (CSRF-checked on mutations). */
import { createParamDecorator, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { accountCallerOf, ConsoleAuth, type AccountCaller } from './console-auth.js';

@Injectable()
export class AccountGuard implements CanActivate {
  constructor(private readonly auth: ConsoleAuth) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.auth.account(context.switchToHttp().getRequest<FastifyRequest>());
    return true;
  }
}

export const CurrentAccount = createParamDecorator((_data: unknown, context: ExecutionContext): AccountCaller => {
  const caller = accountCallerOf(context.switchToHttp().getRequest<FastifyRequest>());
  if (!caller) throw new Error('CurrentAccount used on a route without AccountGuard');
  return caller;
});
