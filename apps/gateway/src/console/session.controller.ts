/**
 * `/console/session`: sign in (POST, JSON), who am I and the CSRF token (GET), sign out (DELETE). The session
 * cookie is HttpOnly, SameSite=Strict, Secure behind TLS; an operator's sign-in also opens the queue dashboard.
 */
import { Body, Controller, Delete, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { ErrorCode, parseInput, signInBodySchema, TrawlError, type ConsoleSession } from '#contracts';
import { AdminSession, SESSION_COOKIE as DASHBOARD_COOKIE } from '../admin/admin-session.js';
import { DASHBOARD_PATH } from '../admin/queue-dashboard.module.js';
import { checkOrigin, ConsoleAuth } from './console-auth.js';
import { SESSION_COOKIE, SESSION_TTL_MS, SessionStore, type StoredSession } from './session-store.js';
import { SignInService } from './sign-in.service.js';

const view = (session: StoredSession): ConsoleSession => ({
  kind: session.kind,
  csrfToken: session.csrf,
  ...(session.accountId ? { account: { id: session.accountId, name: session.accountName ?? '' } } : {}),
  expiresAt: new Date(session.expiresAt).toISOString(),
});

@Controller('console/session')
export class SessionController {
  constructor(
    private readonly signIns: SignInService,
    private readonly sessions: SessionStore,
    private readonly auth: ConsoleAuth,
    @Inject(TRAWL_CONFIG) private readonly config: TrawlConfig,
  ) {}

  @Post()
  @HttpCode(200)
  async signIn(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Body() body: unknown): Promise<ConsoleSession> {
    checkOrigin(request);
    if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
      throw new TrawlError(ErrorCode.INVALID_REQUEST, 'Send the sign-in as application/json');
    }
    const { token, session } = await this.signIns.signIn(parseInput(signInBodySchema, body, 'body'), request.ip);
    const cookies = [this.cookie(request, SESSION_COOKIE, token, '/', SESSION_TTL_MS / 1000)];
    if (session.kind === 'admin' && this.config.ADMIN_TOKEN) {
      cookies.push(this.cookie(request, DASHBOARD_COOKIE, new AdminSession(this.config.ADMIN_TOKEN).cookieValue(), DASHBOARD_PATH, SESSION_TTL_MS / 1000));
    }
    void reply.header('set-cookie', cookies).header('cache-control', 'no-store');
    return view(session);
  }

  @Get()
  async current(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<ConsoleSession> {
    const found = await this.auth.session(request);
    if (!found) throw new TrawlError(ErrorCode.UNAUTHORIZED, 'Not signed in');
    void reply.header('cache-control', 'no-store');
    return view(found.session);
  }

  @Delete()
  @HttpCode(204)
  async signOut(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    const found = await this.auth.session(request);
    if (found) {
      this.auth.checkMutation(request, found.session);
      await this.sessions.close(found.token);
    }
    void reply.header('set-cookie', [this.cookie(request, SESSION_COOKIE, '', '/', 0), this.cookie(request, DASHBOARD_COOKIE, '', DASHBOARD_PATH, 0)]);
  }

  private cookie(request: FastifyRequest, name: string, value: string, path: string, maxAgeS: number): string {
    const secure = request.protocol === 'https' || this.config.PUBLIC_BASE_URL?.startsWith('https:') ? '; Secure' : '';
    return `${name}=${value}; Path=${path}; HttpOnly; SameSite=Strict; Max-Age=${maxAgeS}${secure}`;
  }
}
