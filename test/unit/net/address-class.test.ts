import { describe, expect, it } from 'vitest';
import { addressClass } from '../../../src/server/net/address-class.js';
import { formatIp, parseIp } from '../../../src/server/net/ip.js';

const cls = (ip: string) => addressClass(parseIp(ip)!);

describe('address classes of the outbound fetch policy', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['100::1', 'reserved'],
    // IPv4 carried in IPv6 is judged by the IPv4 address.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['2002:7f00:1::1', 'loopback'],
    ['::127.0.0.1', 'loopback'],
  ])('%s is %s', (ip, expected) => {
    expect(cls(ip)).toBe(expected);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '192.169.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '2002:808:808::1',
  ])('%s is public', (ip) => {
    expect(cls(ip)).toBeNull();
  });

  it('odd IPv4 forms in URLs are normalised by the URL parser before any check', () => {
    for (const u of ['http://2130706433/', 'http://0x7f.1/', 'http://0177.0.0.1/', 'http://127.1/']) {
      expect(new URL(u).hostname).toBe('127.0.0.1');
      expect(cls(new URL(u).hostname)).toBe('loopback');
    }
    expect(cls(new URL('http://[::ffff:127.0.0.1]/').hostname)).toBe('loopback');
    expect(cls(new URL('http://[::ffff:169.254.169.254]/').hostname)).toBe('link-local');
  });

  it('parses and formats addresses', () => {
    expect(formatIp(parseIp('[2001:DB8:0:0:0:0:0:1]')!)).toBe('2001:db8::1');
    expect(formatIp(parseIp('::ffff:127.0.0.1')!)).toBe('::ffff:7f00:1');
    expect(parseIp('example.org')).toBeNull();
    expect(parseIp('2130706433')).toBeNull();
  });
});
