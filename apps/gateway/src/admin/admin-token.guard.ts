/**
 * Guards /admin with ADMIN_TOKEN: a Bearer header (scripts), or the operator's console session (CSRF-checked on
 * mutations). The admin API is off (404) when no token is configured.
 */
import { Inject, Injectable, Optional, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { ErrorCode, TrawlError } from '#contracts';
import { ConsoleAuth } from '../console/console-auth.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly expected: Buffer | null;

  constructor(
    @Inject(TRAWL_CONFIG) config: TrawlConfig,
    @Optional() private readonly console?: ConsoleAuth,
  ) {
    this.expected = config.ADMIN_TOKEN ? digest(config.ADMIN_TOKEN) : null;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!this.expected) throw new TrawlError(ErrorCode.NOT_FOUND, 'The admin API is disabled: set ADMIN_TOKEN to enable it');
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    if (match && timingSafeEqual(digest(match[1]), this.expected)) return true;
    if (!request.headers.authorization && (await this.console?.admin(request))) return true;
    throw new TrawlError(ErrorCode.UNAUTHORIZED, 'Invalid or missing admin token');
  }
}
