/**
 * The per-job SSRF decision for a host name: refuse it when it is (or resolves to) a blocked address, otherwise
 * pin the address that was checked so the connection goes exactly there (no DNS-rebinding window).
 * Decisions are cached for the job: one lookup per host, shared by the pre-check and the guard proxy.
 */
import { isIP } from 'node:net';
import dns from 'node:dns';
import type { AddressKind, DnsResolver } from '#fetch';
import type { AddressPolicy } from './render-types.js';

export type HostDecision =
  | { verdict: 'allow'; /** the checked address to connect to; null = the upstream proxy resolves it */ address: string | null }
  | { verdict: 'block'; kind: AddressKind }
  | { verdict: 'dns-failed'; code: string };

export const systemResolve: DnsResolver = (hostname) => dns.promises.lookup(hostname, { all: true });

const PERMANENT_DNS_CODES = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME', 'EAI_NODATA']);

export function isPermanentDnsFailure(code: string): boolean {
  return PERMANENT_DNS_CODES.has(code);
}

/** Host as found in URL.hostname or a CONNECT authority, without IPv6 brackets. */
export function bareHost(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

export class HostPolicy {
  private readonly cache = new Map<string, Promise<HostDecision>>();

  constructor(
    private readonly policy: AddressPolicy,
    private readonly resolve: DnsResolver,
    /**
     * Through an upstream proxy the proxy connects by name (it resolves it itself, for its own country), once the name
     * resolved here to public addresses only. A name that does not resolve here is refused like on a direct
     * connection: the proxy's resolver could answer it with a private address nobody checked.
     */
    private readonly viaUpstream: boolean,
  ) {}

  decide(rawHost: string): Promise<HostDecision> {
    const host = bareHost(rawHost).toLowerCase();
    let decision = this.cache.get(host);
    if (!decision) {
      decision = this.compute(host);
      this.cache.set(host, decision);
    }
    return decision;
  }

  private async compute(host: string): Promise<HostDecision> {
    if (isIP(host) !== 0) {
      const kind = this.policy.blockedKind(host);
      return kind === null ? { verdict: 'allow', address: host } : { verdict: 'block', kind };
    }
    let addresses: { address: string }[];
    try {
      addresses = await this.resolve(host);
    } catch (error) {
      return { verdict: 'dns-failed', code: (error as NodeJS.ErrnoException).code ?? 'EAI_FAIL' };
    }
    if (addresses.length === 0) return { verdict: 'dns-failed', code: 'ENOTFOUND' };
    // One blocked answer refuses the host: a name mixing public and private records is suspicious.
    for (const { address } of addresses) {
      const kind = this.policy.blockedKind(address);
      if (kind !== null) return { verdict: 'block', kind };
    }
    return { verdict: 'allow', address: this.viaUpstream ? null : addresses[0].address };
  }
}
