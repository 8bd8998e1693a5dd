import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** An IPv4 or IPv6 address (ipaddr.js). */
export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

/** An address block: `10.0.0.0/8`, `fc00::/7`. */
export type Cidr = [IpAddress, number];

/**
 * Parses a textual IPv4 or IPv6 address (brackets and an IPv6 zone such as `%eth0` are accepted),
 * or null when it is not an address. Only canonical dotted-quad IPv4 is accepted here (node's
 * isIP decides): odd forms (`2130706433`, `0x7f.1`) never reach this point, because WHATWG URL
 * parsing has already normalised a URL's host and resolvers answer in canonical form.
 */
export function parseIp(text: string): IpAddress | null {
  let s = text.trim();
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  return isIP(s) ? ipaddr.parse(s) : null;
}

/** The address in its canonical text (IPv6 compressed as RFC 5952 asks). */
export const formatIp = (address: IpAddress): string => address.toString();

/** Parses `ADDRESS/PREFIX`, or a bare address as a single-address block; null when malformed. */
export function parseCidr(text: string): Cidr | null {
  const slash = text.indexOf('/');
  const address = parseIp(slash < 0 ? text : text.slice(0, slash));
  if (!address) return null;
  const max = address.kind() === 'ipv4' ? 32 : 128;
  if (slash < 0) return [address, max];
  const p = text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(p) || Number(p) > max) return null;
  return [address, Number(p)];
}

export function inCidr(address: IpAddress, block: Cidr): boolean {
  return address.kind() === block[0].kind() && address.match(block);
}

/** `::ffff:a.b.c.d` — the IPv4 address a dual-stack socket really reaches — or null. */
export function ipv4Mapped(address: IpAddress): IpAddress | null {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : null;
}

/** The IPv4 address carried in an IPv6 one from byte `at` (6to4, NAT64, IPv4-compatible forms). */
export function embeddedIpv4(address: IpAddress, at: number): IpAddress {
  return ipaddr.fromByteArray(address.toByteArray().slice(at, at + 4));
}
