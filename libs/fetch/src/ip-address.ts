/**
 * IP address parsing and classification for the SSRF guard: which special-purpose range (if any) an address
 * belongs to. Table-driven so the ranges can be reviewed against the IANA special-purpose registries at a glance.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** Why an address is not a public internet target. */
export type AddressKind =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'metadata'
  | 'unspecified'
  | 'multicast'
  | 'reserved'
  | 'unique-local';

interface V4Range {
  base: number;
  bits: number;
  kind: AddressKind;
}

const v4 = (cidr: string, kind: AddressKind): V4Range => {
  const [addr, bits] = cidr.split('/');
  return { base: parseIPv4(addr) as number, bits: Number(bits), kind };
};

/** Most specific first: the first match wins (metadata before link-local, broadcast inside 240/4). */
const V4_RANGES: readonly V4Range[] = [
  v4('169.254.169.254/32', 'metadata'), // AWS/GCP/Azure/OpenStack instance metadata
  v4('100.100.100.200/32', 'metadata'), // Alibaba Cloud metadata
  v4('168.63.129.16/32', 'metadata'), // Azure wire server (reachable only from inside Azure)
  v4('0.0.0.0/8', 'unspecified'), // "this network"; 0.0.0.0 reaches the local host on Linux
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'cgnat'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link-local'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'reserved'), // IETF protocol assignments
  v4('192.0.2.0/24', 'reserved'), // TEST-NET-1
  v4('192.88.99.0/24', 'reserved'), // 6to4 relay anycast (deprecated)
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'reserved'), // benchmarking
  v4('198.51.100.0/24', 'reserved'), // TEST-NET-2
  v4('203.0.113.0/24', 'reserved'), // TEST-NET-3
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved'), // future use, includes 255.255.255.255 broadcast
];

/** Parses a dotted-quad IPv4 address to an unsigned 32-bit number, or null. */
export function parseIPv4(text: string): number | null {
  if (!isIPv4(text)) return null;
  const parts = text.split('.');
  return ((Number(parts[0]) << 24) | (Number(parts[1]) << 16) | (Number(parts[2]) << 8) | Number(parts[3])) >>> 0;
}

/** Parses an IPv6 address (optionally with a zone id or an embedded dotted IPv4 tail) to eight 16-bit groups. */
export function parseIPv6(text: string): number[] | null {
  const zone = text.indexOf('%');
  const addr = zone === -1 ? text : text.slice(0, zone);
  if (!isIPv6(addr)) return null;
  let head = addr;
  const tail: number[] = [];
  const lastColon = addr.lastIndexOf(':');
  const maybeV4 = addr.slice(lastColon + 1);
  if (maybeV4.includes('.')) {
    const n = parseIPv4(maybeV4);
    if (n === null) return null;
    tail.push(n >>> 16, n & 0xffff);
    head = addr.slice(0, lastColon + 1);
    // "::1.2.3.4" leaves "::" and "64:ff9b::1.2.3.4" leaves "64:ff9b::"; a single trailing colon is a separator.
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const groupsOf = (s: string): number[] => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const gap = head.indexOf('::');
  let groups: number[];
  if (gap === -1) {
    groups = [...groupsOf(head), ...tail];
  } else {
    const left = groupsOf(head.slice(0, gap));
    const right = [...groupsOf(head.slice(gap + 2)), ...tail];
    groups = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  }
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : null;
}

export function classifyIPv4(n: number): AddressKind | null {
  for (const range of V4_RANGES) {
    const mask = range.bits === 0 ? 0 : (~0 << (32 - range.bits)) >>> 0;
    if (((n & mask) >>> 0) === range.base) return range.kind;
  }
  return null;
}

const embeddedV4 = (hi: number, lo: number): number => ((hi << 16) | lo) >>> 0;

export function classifyIPv6(g: number[]): AddressKind | null {
  const zeroPrefix = g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0 && g[4] === 0;
  if (zeroPrefix && g[5] === 0) {
    if (g[6] === 0 && g[7] === 0) return 'unspecified';
    if (g[6] === 0 && g[7] === 1) return 'loopback';
    // ::a.b.c.d, the deprecated IPv4-compatible form: never a legitimate target.
    return classifyIPv4(embeddedV4(g[6], g[7])) ?? 'reserved';
  }
  // ::ffff:a.b.c.d (IPv4-mapped): connecting to it reaches the IPv4 address.
  if (zeroPrefix && g[5] === 0xffff) return classifyIPv4(embeddedV4(g[6], g[7]));
  // 64:ff9b::/96 NAT64 well-known prefix: translated to the embedded IPv4 address by the network.
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0) {
    return classifyIPv4(embeddedV4(g[6], g[7]));
  }
  // 2002::/16 6to4: the IPv4 address is in groups 1–2.
  if (g[0] === 0x2002) return classifyIPv4(embeddedV4(g[1], g[2]));
  if (g[0] === 0xfd00 && g[1] === 0x0ec2 && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0 && g[6] === 0 && g[7] === 0x254) {
    return 'metadata'; // AWS instance metadata over IPv6
  }
  if ((g[0] & 0xfe00) === 0xfc00) return 'unique-local'; // fc00::/7
  if ((g[0] & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  if ((g[0] & 0xffc0) === 0xfec0) return 'reserved'; // fec0::/10 site-local (deprecated)
  if ((g[0] & 0xff00) === 0xff00) return 'multicast'; // ff00::/8
  if (g[0] === 0x2001 && g[1] === 0x0db8) return 'reserved'; // documentation
  if (g[0] === 0x2001 && g[1] < 0x0200) return 'reserved'; // 2001::/23 IETF protocol assignments (Teredo, ORCHID…)
  if (g[0] === 0x3fff && g[1] < 0x1000) return 'reserved'; // 3fff::/20 documentation
  // Only 2000::/3 is allocated for global unicast; everything else (64:ff9b:1::/48, 100::/64, …) is special.
  if ((g[0] & 0xe000) !== 0x2000) return 'reserved';
  return null;
}

/**
 * The special-purpose kind of an IP address string (IPv4, IPv6, bracketed IPv6, with zone id),
 * null for a public unicast address, or 'reserved' for anything that does not parse as an IP.
 */
export function classifyIp(ip: string): AddressKind | null {
  const text = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const n = parseIPv4(text);
  if (n !== null) return classifyIPv4(n);
  const groups = parseIPv6(text);
  if (groups !== null) return classifyIPv6(groups);
  return 'reserved'; // fail closed: an unparseable "address" is never a public target
}

const KIND_LABEL: Readonly<Record<AddressKind, string>> = {
  loopback: 'a loopback address',
  private: 'a private network address',
  'link-local': 'a link-local address',
  cgnat: 'a carrier-grade NAT address',
  metadata: 'a cloud metadata address',
  unspecified: 'an unspecified address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
  'unique-local': 'a unique-local IPv6 address',
};

export function describeAddressKind(kind: AddressKind): string {
  return KIND_LABEL[kind];
}
