/**
 * One-time console sign-in links (`npm run trawl -- console:link`): a random token shown once, stored only as its
 * sha256, valid for LINK_TTL_MS and for one sign-in. The token travels in the URL's fragment, which browsers never
 * send to the server or in a Referer.
 */
import { createHash, randomBytes } from 'node:crypto';

export const LINK_TTL_MS = 15 * 60_000;

export interface SignInLinks {
  createLink(accountId: string, hash: string, expiresAt: Date): Promise<void>;
  consumeLink(hash: string, now: Date): Promise<string | null>;
}

export const hashLinkToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** Issues a link token for the account; the caller builds the URL (`<base>/console/#link=<token>`). */
export async function issueSignInLink(links: SignInLinks, accountId: string, now: Date): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + LINK_TTL_MS);
  await links.createLink(accountId, hashLinkToken(token), expiresAt);
  return { token, expiresAt };
}

export function consoleLinkUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/console/#link=${token}`;
}
