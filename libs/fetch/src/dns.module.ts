/**
 * The DNS resolver every guarded client and Chromium pool of a process checks host names with: the system's, or one a
 * test injects (so hostile names like metadata.google.internal are answered by the test, never by a real DNS server).
 */
import { Global, Module, type DynamicModule } from '@nestjs/common';
import { systemResolver, type DnsResolver } from './guarded-lookup.js';

export const DNS_RESOLVER = Symbol('DNS_RESOLVER');

/** For a factory's `inject`: the resolver when a DnsModule is loaded, else undefined (the system resolver applies). */
export const OPTIONAL_DNS_RESOLVER = { token: DNS_RESOLVER, optional: true } as const;

@Global()
@Module({})
export class DnsModule {
  static forRoot(resolve: DnsResolver = systemResolver): DynamicModule {
    return { module: DnsModule, providers: [{ provide: DNS_RESOLVER, useValue: resolve }], exports: [DNS_RESOLVER] };
  }
}
