/** Guards /admin with ADMIN_TOKEN (Bearer); the admin API is off (404) when no token is configured. */
import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { ErrorCode, TrawlError } from '#contracts';

const digest = (value: string) => createHash('sha256').update(value).digest();

@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly expected: Buffer | null;

  constructor(@Inject(TRAWL_CONFIG) config: TrawlConfig) {
    this.expected = config.ADMIN_TOKEN ? digest(config.ADMIN_TOKEN) : null;
  }

  canActivate(context: ExecutionContext): boolean {
    if (!this.expected) throw new TrawlError(ErrorCode.NOT_FOUND, 'The admin API is disabled: set ADMIN_TOKEN to enable it');
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    if (!match || !timingSafeEqual(digest(match[1]), this.expected)) {
      throw new TrawlError(ErrorCode.UNAUTHORIZED, 'Invalid or missing admin token');
    }
    return true;
  }
}
