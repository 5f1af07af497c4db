/** API keys: `trawl_` + 40 base62 characters (~238 bits). Stored as sha256; the first 12 characters identify it. */
import { createHash, randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const KEY_PREFIX = 'trawl_';
const KEY_BODY_LENGTH = 40;
const SHOWN_PREFIX_LENGTH = 12;

export interface NewApiKey {
  key: string;
  prefix: string;
  hash: string;
}

export function generateApiKey(): NewApiKey {
  const bytes = randomBytes(KEY_BODY_LENGTH * 2);
  let body = '';
  // Rejection sampling keeps every character uniform (248 = 4 × 62).
  for (const byte of bytes) {
    if (byte < 248) body += ALPHABET[byte % 62];
    if (body.length === KEY_BODY_LENGTH) break;
  }
  while (body.length < KEY_BODY_LENGTH) body += ALPHABET[randomBytes(1)[0] % 62];
  const key = KEY_PREFIX + body;
  return { key, prefix: key.slice(0, SHOWN_PREFIX_LENGTH), hash: hashApiKey(key) };
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Cheap shape check before any lookup: bounded length, printable ASCII. */
export function looksLikeApiKey(value: string): boolean {
  return value.length >= 8 && value.length <= 200 && /^[\x21-\x7e]+$/.test(value);
}
