/**
 * The admin token as the queue dashboard checks it: a Bearer header, or the HttpOnly session cookie the login form
 * sets. The cookie holds an HMAC of the token (it changes when the token does), never the token.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'trawl_admin_session';
const digest = (value: string) => createHash('sha256').update(value).digest();

export class AdminSession {
  private readonly expected: Buffer;
  private readonly cookie: string;

  constructor(token: string) {
    this.expected = digest(token);
    this.cookie = createHmac('sha256', token).update('trawl queue dashboard session').digest('base64url');
  }

  matches(token: string): boolean {
    return timingSafeEqual(digest(token), this.expected);
  }

  cookieValue(): string {
    return this.cookie;
  }

  authorizes(headers: { authorization?: string; cookie?: string }): boolean {
    const bearer = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '');
    if (bearer) return this.matches(bearer[1]);
    const value = (headers.cookie ?? '')
      .split(';')
      .map((part) => part.trim().split('='))
      .find(([name]) => name === SESSION_COOKIE)?.[1];
    return value !== undefined && timingSafeEqual(digest(value), digest(this.cookie));
  }
}
