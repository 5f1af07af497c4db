/**
 * DNS resolution with the SSRF guard applied to every answer. Used as the socket `lookup` of the direct agent, so
 * the address that is checked is exactly the address that is connected to (no check-then-resolve-again window for
 * DNS rebinding), and before proxied fetches, where the proxy resolves the host itself.
 */
import dns, { type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { AddressGuard } from './address-guard.js';
import type { AddressKind } from './ip-address.js';

/** Resolves a host name to all its addresses (the system resolver by default; replaceable for tests or caching). */
export type DnsResolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: DnsResolver = (hostname) => dns.promises.lookup(hostname, { all: true });

/**
 * A `net.connect` lookup that refuses the connection when any resolved address is blocked. One blocked answer refuses
 * the host outright rather than filtering it out: a name that mixes public and private records is suspicious.
 */
export function createGuardedLookup(guard: AddressGuard, resolve: DnsResolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolveAllowed(guard, resolve, hostname).then(
      (all) => {
        const family = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
        const addresses = family === 0 ? all : all.filter((a) => a.family === family);
        if (addresses.length === 0) {
          callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
        } else if (options.all) {
          callback(null, addresses);
        } else {
          callback(null, addresses[0].address, addresses[0].family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

/** Resolves `hostname` and rejects (GuardRefusal) when any answer is refused; resolver errors propagate as-is. */
export async function resolveAllowed(guard: AddressGuard, resolve: DnsResolver, hostname: string): Promise<LookupAddress[]> {
  const addresses = await resolve(hostname);
  for (const { address } of addresses) {
    const kind = guard.blockedKind(address);
    if (kind !== null) throw guardRefusal(kind);
  }
  return addresses;
}

/**
 * The error handed to undici through the socket: an errno-style error carrying the address kind, which the client
 * maps to BLOCKED_ADDRESS (it crosses undici's connection error path, so it is recognised by code, not class).
 */
export interface GuardRefusal extends NodeJS.ErrnoException {
  code: 'ERR_TRAWL_BLOCKED_ADDRESS';
  addressKind: AddressKind;
}

function guardRefusal(kind: AddressKind): GuardRefusal {
  return Object.assign(new Error(`Refused to connect: the host resolves to a ${kind} address`), {
    code: 'ERR_TRAWL_BLOCKED_ADDRESS' as const,
    addressKind: kind,
  });
}
