/**
 * Authenticates by `x-api-key` or `Authorization: Bearer`. When both are sent they must carry the same key:
 * two different keys are refused (401) rather than silently preferring one. An `Authorization` of another scheme
 * (a proxy's or gateway's `Basic …`) carries no API key: beside an `x-api-key` it is left alone; alone it is a 401.
 */
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AuthService } from '#billing';
import { ErrorCode, TrawlError } from '#contracts';
import { callerOf, setPrincipal } from './principal.js';

export function apiKeyFrom(headers: FastifyRequest['headers']): string | undefined {
  const header = headers['x-api-key'];
  if (Array.isArray(header)) throw new TrawlError(ErrorCode.UNAUTHORIZED, 'Send exactly one x-api-key header');
  const fromHeader = header?.trim() || undefined;
  const authorization = headers.authorization;
  let fromBearer: string | undefined;
  const bearer = authorization !== undefined && /^\s*Bearer(\s|$)/i.test(authorization);
  if (authorization && (bearer || !fromHeader)) {
    const match = /^\s*Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw new TrawlError(ErrorCode.UNAUTHORIZED, 'Authorization header must be "Bearer <API_KEY>"');
    fromBearer = match[1];
  }
  if (fromHeader && fromBearer && fromHeader !== fromBearer) {
    throw new TrawlError(ErrorCode.UNAUTHORIZED, 'x-api-key and Authorization carry different keys; send one key');
  }
  return fromHeader ?? fromBearer;
}

@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly auth: AuthService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const principal = await this.auth.authenticate(apiKeyFrom(request.headers));
    setPrincipal(request, callerOf(request, principal));
    return true;
  }
}
