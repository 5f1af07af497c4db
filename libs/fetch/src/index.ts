/**
 * libs/fetch — the HTTP fetch layer: an undici client with redirects, decompression, charset detection, size and time
 * caps and the SSRF guard; forward-proxy routing with a per-country pool; device-consistent request headers.
 */
export type { FetchOptions, FetchResult, HttpClient } from './types.js';
export { UndiciHttpClient, type UndiciHttpClientOptions } from './http-client.js';
export { AddressGuard, type AddressGuardOptions, type AddressKind } from './address-guard.js';
export { classifyIp, describeAddressKind } from './ip-address.js';
export type { DnsResolver } from './guarded-lookup.js';
export { StaticProxyPool, ANY_COUNTRY, proxyFor, redactProxy } from './proxy-pool.js';
export { decodeBody, sniffDeclaredCharset, type DecodedText } from './charset.js';
export { parseContentEncoding } from './body.js';
export { DEFAULT_ACCEPT_LANGUAGE, acceptLanguageForCountry, buildRequestHeaders } from './request-headers.js';
export { DNS_RESOLVER, DnsModule, OPTIONAL_DNS_RESOLVER } from './dns.module.js';
export { FetchModule, PROXY_POOL, RESIDENTIAL_PROXY_POOL, residentialPoolFromConfig } from './fetch.module.js';
export { ResidentialProxyPool, type ProxyLease, type ProxyOutcome, type ResidentialProxyPoolOptions } from './residential-proxy-pool.js';
export { detectBlock, type BlockInput, type BlockVerdict } from './block-detection.js';
export { BrowserTlsHttpClient, type BrowserTlsHttpClientOptions } from './browser-tls-client.js';
export { readDocumentFile } from './document-file.js';
