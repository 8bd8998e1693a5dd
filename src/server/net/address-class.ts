import { embeddedIpv4, inCidr, parseCidr, type Cidr, type IpAddress } from './ip.js';

/** Why an address is not fetched on a user's behalf; the words appear in refusal messages. */
export type AddressClass =
  'loopback' | 'private' | 'link-local' | 'carrier-grade NAT' | 'multicast' | 'unspecified' | 'broadcast' | 'reserved';

type Rule = { block: Cidr; class: AddressClass } | { block: Cidr; embedsIpv4At: number };

const rule = (cidr: string, cls: AddressClass): Rule => ({ block: parseCidr(cidr)!, class: cls });
const embeds = (cidr: string, at: number): Rule => ({ block: parseCidr(cidr)!, embedsIpv4At: at });

/** First match wins, so narrower blocks come before the blocks that contain them. */
const IPV4: Rule[] = [
  rule('0.0.0.0/8', 'unspecified'), // "this network": 0.0.0.0 reaches the local host on Linux
  rule('10.0.0.0/8', 'private'),
  rule('100.64.0.0/10', 'carrier-grade NAT'),
  rule('127.0.0.0/8', 'loopback'),
  rule('169.254.0.0/16', 'link-local'), // includes 169.254.169.254, the cloud metadata service
  rule('172.16.0.0/12', 'private'),
  rule('192.0.0.0/24', 'reserved'), // IETF protocol assignments
  rule('192.0.2.0/24', 'reserved'), // documentation (TEST-NET-1)
  rule('192.88.99.0/24', 'reserved'), // 6to4 relay anycast, deprecated
  rule('192.168.0.0/16', 'private'),
  rule('198.18.0.0/15', 'reserved'), // benchmarking
  rule('198.51.100.0/24', 'reserved'), // documentation (TEST-NET-2)
  rule('203.0.113.0/24', 'reserved'), // documentation (TEST-NET-3)
  rule('224.0.0.0/4', 'multicast'),
  rule('255.255.255.255/32', 'broadcast'),
  rule('240.0.0.0/4', 'reserved'), // "future use"
];

const IPV6: Rule[] = [
  rule('::/128', 'unspecified'),
  rule('::1/128', 'loopback'),
  // Forms that carry an IPv4 address are judged by that address: ::ffff:127.0.0.1 is loopback.
  embeds('::ffff:0:0/96', 12), // IPv4-mapped
  embeds('::/96', 12), // IPv4-compatible, deprecated
  embeds('64:ff9b::/96', 12), // NAT64 well-known prefix
  embeds('2002::/16', 2), // 6to4
  rule('64:ff9b:1::/48', 'private'), // local-use NAT64
  rule('100::/64', 'reserved'), // discard-only
  rule('2001::/23', 'reserved'), // IETF protocol assignments, Teredo included
  rule('2001:db8::/32', 'reserved'), // documentation
  rule('3fff::/20', 'reserved'), // documentation
  rule('fc00::/7', 'private'), // unique local
  rule('fe80::/10', 'link-local'),
  rule('fec0::/10', 'private'), // site-local, deprecated
  rule('ff00::/8', 'multicast'),
];

/** Everything outside global unicast 2000::/3 that no rule above names. */
const GLOBAL_UNICAST_V6 = parseCidr('2000::/3')!;

/**
 * The class that keeps an address from being fetched, or null for an ordinary public address.
 * IPv6 is allowed only inside global unicast (2000::/3), minus the blocks listed above.
 */
export function addressClass(address: IpAddress): AddressClass | null {
  const rules = address.kind() === 'ipv4' ? IPV4 : IPV6;
  for (const r of rules) {
    if (!inCidr(address, r.block)) continue;
    if ('class' in r) return r.class;
    return addressClass(embeddedIpv4(address, r.embedsIpv4At));
  }
  if (address.kind() === 'ipv6' && !inCidr(address, GLOBAL_UNICAST_V6)) return 'reserved';
  return null;
}

/** "a loopback address", "an unspecified address". */
export function describeClass(cls: AddressClass): string {
  return `${/^[aeiou]/.test(cls) ? 'an' : 'a'} ${cls} address`;
}
