/**
 * For SSRF tests of the render pool: a public site on 127.0.0.1 and an "internal network" on 127.0.0.2 (the address
 * policy blocks it), with a DNS resolver the test controls (names → addresses; others fail as ENOTFOUND).
 */
import type { DnsResolver } from '#fetch';
import type { AddressPolicy } from '../render-types.js';
import { FixtureSite } from './fixture-site.js';

export interface InternalNetwork {
  outside: FixtureSite;
  inside: FixtureSite;
  /** 127.0.0.2 plays the internal network. */
  policy: AddressPolicy;
  resolve: DnsResolver;
  /** What `resolve` answers, by name; change it to rebind a name. */
  answers: Map<string, string>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export function internalNetwork(answers: Record<string, string>): InternalNetwork {
  const outside = new FixtureSite('127.0.0.1');
  const inside = new FixtureSite('127.0.0.2');
  const table = new Map(Object.entries(answers));
  return {
    outside,
    inside,
    policy: { blockedKind: (ip) => (ip === '127.0.0.2' ? 'private' : null) },
    answers: table,
    resolve: async (hostname) => {
      const address = table.get(hostname);
      if (address) return [{ address, family: 4 }];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    },
    start: async () => void (await Promise.all([outside.start(), inside.start()])),
    close: async () => void (await Promise.all([outside.close(), inside.close()])),
  };
}
