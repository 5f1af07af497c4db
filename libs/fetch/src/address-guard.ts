/**
 * The SSRF guard: decides whether a URL (scheme + literal IP host) or a resolved IP address may be fetched.
 * The HTTP client calls it before every hop and again on every DNS answer at connect time, so a hostname that
 * (re)binds to a private address is refused before a socket is opened.
 */
import { isIP } from 'node:net';
import { ErrorCode, TrawlError } from '#contracts';
import { classifyIp, describeAddressKind, type AddressKind } from './ip-address.js';

export type { AddressKind } from './ip-address.js';

export interface AddressGuardOptions {
  /**
   * The explicit "local targets" switch that tests and local development turn on: allows loopback targets
   * (127.0.0.0/8, ::1). It deliberately does not open private networks or metadata endpoints — a redirect from a
   * local fixture to 10.0.0.1 or 169.254.169.254 is still refused. Use `allowedKinds` to crawl an intranet.
   */
  allowPrivateAddresses: boolean;
  /**
   * The exact address kinds to allow, replacing what `allowPrivateAddresses` implies (e.g. `['loopback', 'private']`).
   * `metadata` is never allowed, whatever is listed.
   */
  allowedKinds?: readonly AddressKind[];
}

const FETCHABLE_SCHEMES = new Set(['http:', 'https:']);

export class AddressGuard {
  private readonly allowed: ReadonlySet<AddressKind>;

  constructor(opts: AddressGuardOptions) {
    const kinds = opts.allowedKinds ?? (opts.allowPrivateAddresses ? ['loopback'] : []);
    this.allowed = new Set(kinds.filter((kind) => kind !== 'metadata'));
  }

  /** The reason an address is refused, or null when it may be fetched. */
  blockedKind(ip: string): AddressKind | null {
    const kind = classifyIp(ip);
    return kind === null || this.allowed.has(kind) ? null : kind;
  }

  isBlockedIp(ip: string): boolean {
    return this.blockedKind(ip) !== null;
  }

  /** Throws BLOCKED_ADDRESS when `ip` is refused. */
  assertIpAllowed(ip: string): void {
    const kind = this.blockedKind(ip);
    if (kind !== null) throw blockedAddressError(kind);
  }

  /**
   * Checks what can be checked without DNS: the scheme, and the host when it is a literal IP
   * (WHATWG URL already normalised decimal/octal/hex IPv4 forms such as `http://2130706433/` to dotted quads).
   */
  assertUrlAllowed(url: URL): void {
    if (!FETCHABLE_SCHEMES.has(url.protocol)) {
      throw new TrawlError(ErrorCode.INVALID_URL, `Unsupported URL scheme "${url.protocol.slice(0, 20)}" (only http and https)`);
    }
    const host = literalIpHost(url);
    if (host !== null) this.assertIpAllowed(host);
  }
}

/** The host of `url` without brackets when it is a literal IP address, else null. */
export function literalIpHost(url: URL): string | null {
  const host = url.hostname;
  if (host.startsWith('[')) return host.slice(1, -1);
  return isIP(host) === 4 ? host : null;
}

export function blockedAddressError(kind: AddressKind): TrawlError {
  return new TrawlError(ErrorCode.BLOCKED_ADDRESS, `Refused to fetch: the target is ${describeAddressKind(kind)}`, 'permanent');
}
