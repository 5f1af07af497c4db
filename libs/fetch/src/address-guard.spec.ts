import { describe, expect, it } from '@jest/globals';
import { ErrorCode, TrawlError } from '#contracts';
import { AddressGuard } from './address-guard.js';
import { classifyIp, parseIPv6 } from './ip-address.js';

describe('classifyIp', () => {
  it.each([
    // IPv4
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.0.1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['100.100.100.200', 'metadata'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['198.18.0.1', 'reserved'],
    // IPv6
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fd00:ec2::254', 'metadata'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'], // Teredo
    ['fec0::1', 'reserved'],
    ['100::1', 'reserved'],
    ['64:ff9b:1::1', 'reserved'],
    // IPv4 embedded in IPv6: the embedded address decides
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['[::ffff:a00:1]', 'private'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['::127.0.0.1', 'loopback'], // deprecated IPv4-compatible form
    ['::8.8.8.8', 'reserved'],
    ['64:ff9b::10.0.0.1', 'private'], // NAT64 to a private address
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['2002:c0a8:0101::1', 'private'], // 6to4 of 192.168.1.1
    ['2002:7f00:1::', 'loopback'],
    // not an IP at all: fail closed
    ['example.com', 'reserved'],
    ['', 'reserved'],
  ])('%s is %s', (ip, kind) => {
    expect(classifyIp(ip)).toBe(kind);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.15.255.255', // just below 172.16/12
    '172.32.0.0', // just above
    '100.63.255.255', // just below CGNAT
    '100.128.0.0', // just above
    '169.253.255.255',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001:82b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8', // NAT64 to a public address is a legitimate route on IPv6-only networks
    '2002:0808:0808::1', // 6to4 of 8.8.8.8
  ])('%s is public', (ip) => {
    expect(classifyIp(ip)).toBeNull();
  });

  it('parses compressed, full and dotted-tail IPv6 forms to the same groups', () => {
    const expected = [0, 0, 0, 0, 0, 0xffff, 0x0a00, 0x0001];
    expect(parseIPv6('::ffff:10.0.0.1')).toEqual(expected);
    expect(parseIPv6('0:0:0:0:0:ffff:a00:1')).toEqual(expected);
    expect(parseIPv6('0000:0000:0000:0000:0000:FFFF:0A00:0001')).toEqual(expected);
    expect(parseIPv6('1:2:3:4:5:6:7.8.9.10')).toEqual([1, 2, 3, 4, 5, 6, 0x0708, 0x090a]);
    expect(parseIPv6('not-an-ip')).toBeNull();
  });
});

describe('AddressGuard', () => {
  const strict = new AddressGuard({ allowPrivateAddresses: false });
  const local = new AddressGuard({ allowPrivateAddresses: true });

  const codeOf = (fn: () => void): string | null => {
    try {
      fn();
      return null;
    } catch (error) {
      return (error as TrawlError).code;
    }
  };

  it('refuses loopback by default and allows it only with the explicit option', () => {
    expect(strict.isBlockedIp('127.0.0.1')).toBe(true);
    expect(strict.isBlockedIp('::1')).toBe(true);
    expect(local.isBlockedIp('127.0.0.1')).toBe(false);
    expect(local.isBlockedIp('::1')).toBe(false);
    expect(local.isBlockedIp('::ffff:127.0.0.1')).toBe(false);
  });

  it('keeps refusing private networks and metadata when only loopback is allowed', () => {
    for (const ip of ['10.0.0.1', '192.168.0.1', '172.16.0.1', '169.254.169.254', 'fd00:ec2::254', 'fc00::1', '100.64.0.1']) {
      expect(local.isBlockedIp(ip)).toBe(true);
    }
  });

  it('never allows metadata addresses, even when listed', () => {
    const wide = new AddressGuard({ allowPrivateAddresses: true, allowedKinds: ['loopback', 'private', 'link-local', 'metadata'] });
    expect(wide.isBlockedIp('10.1.2.3')).toBe(false);
    expect(wide.isBlockedIp('169.254.1.1')).toBe(false);
    expect(wide.isBlockedIp('169.254.169.254')).toBe(true);
    expect(wide.isBlockedIp('fd00:ec2::254')).toBe(true);
  });

  it('allows public addresses', () => {
    expect(strict.isBlockedIp('8.8.8.8')).toBe(false);
    expect(strict.isBlockedIp('2606:4700:4700::1111')).toBe(false);
  });

  it.each([
    ['http://127.0.0.1/', ErrorCode.BLOCKED_ADDRESS],
    ['http://2130706433/', ErrorCode.BLOCKED_ADDRESS], // decimal 127.0.0.1
    ['http://0x7f.1/', ErrorCode.BLOCKED_ADDRESS], // hex + short form
    ['http://017700000001/', ErrorCode.BLOCKED_ADDRESS], // octal
    ['http://0/', ErrorCode.BLOCKED_ADDRESS], // 0.0.0.0
    ['http://[::1]:8080/', ErrorCode.BLOCKED_ADDRESS],
    ['http://[::ffff:169.254.169.254]/', ErrorCode.BLOCKED_ADDRESS],
    ['http://[fd00:ec2::254]/latest/meta-data/', ErrorCode.BLOCKED_ADDRESS],
    ['https://10.0.0.1/', ErrorCode.BLOCKED_ADDRESS],
    ['ftp://example.com/', ErrorCode.INVALID_URL],
    ['file:///etc/passwd', ErrorCode.INVALID_URL],
    ['gopher://127.0.0.1:6379/', ErrorCode.INVALID_URL],
    ['javascript:alert(1)', ErrorCode.INVALID_URL],
    ['http://8.8.8.8/', null],
    ['https://[2606:4700:4700::1111]/', null],
    ['https://site.example/', null], // host names are checked after DNS, at connect time
  ])('assertUrlAllowed(%s) → %s', (url, code) => {
    expect(codeOf(() => strict.assertUrlAllowed(new URL(url)))).toBe(code);
  });

  it('names the address kind in the error, and the error is permanent', () => {
    let caught: unknown;
    try {
      strict.assertUrlAllowed(new URL('http://169.254.169.254/latest/meta-data/iam/'));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TrawlError);
    expect((caught as TrawlError).message).toMatch(/metadata/);
    expect((caught as TrawlError).kind).toBe('permanent');
  });
});
