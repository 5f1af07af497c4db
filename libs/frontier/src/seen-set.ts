/**
 * A crawl's seen-set holds one member per URL key. Keys average ~60–100 bytes; a fixed 64-bit hash of the key is
 * 11 characters, so a hashed set holds several times more URLs in the same Redis memory (bench/crawl/seen-set.ts
 * measures it). At 64 bits, two distinct URLs of one crawl collide with probability ~n²/2⁶⁵: about 3·10⁻⁸ at a
 * million URLs, where a collision would skip one page.
 */
import { createHash } from 'node:crypto';

/** A 64-bit hash of a URL key: the first 8 bytes of its SHA-256, base64url (11 characters). */
export function urlHash(key: string): string {
  return createHash('sha256').update(key).digest().subarray(0, 8).toString('base64url');
}
