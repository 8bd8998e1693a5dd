import { isIP } from 'node:net';

/** An IP address as its bytes: 4 for IPv4, 16 for IPv6. */
export type IpBytes = Uint8Array;

/**
 * Parses a textual IPv4 or IPv6 address (brackets and an IPv6 zone such as `%eth0` are accepted)
 * into its bytes, or null when it is not an address. Only canonical dotted-quad IPv4 is accepted
 * here: odd forms (`2130706433`, `0x7f.1`) never reach this point, because WHATWG URL parsing has
 * already normalised a URL's host and resolvers answer in canonical form.
 */
export function parseIp(text: string): IpBytes | null {
  let s = text.trim();
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  const kind = isIP(s);
  if (kind === 4) return Uint8Array.from(s.split('.').map(Number));
  if (kind === 6) return parseIpv6(s);
  return null;
}

function parseIpv6(s: string): IpBytes {
  const out = new Uint8Array(16);
  let tail = s;
  // A trailing dotted IPv4 (::ffff:1.2.3.4) becomes the last two groups.
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    const v4 = s.slice(lastColon + 1).split('.').map(Number);
    tail = `${s.slice(0, lastColon + 1)}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const [head, rest] = tail.split('::') as [string, string | undefined];
  const groups = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const all = [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
  all.forEach((g, i) => {
    out[i * 2] = g >> 8;
    out[i * 2 + 1] = g & 0xff;
  });
  return out;
}

export function formatIp(bytes: IpBytes): string {
  if (bytes.length === 4) return bytes.join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
  // Compress the longest run of zero groups, as RFC 5952 asks.
  let best = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > bestLen && j - i > 1) [best, bestLen] = [i, j - i];
    i = j;
  }
  if (best < 0) return groups.join(':');
  return `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLen).join(':')}`;
}

/** An address block: `10.0.0.0/8`, `fc00::/7`. */
export interface Cidr {
  bytes: IpBytes;
  prefix: number;
}

/** Parses `ADDRESS/PREFIX`, or a bare address as a single-address block; null when malformed. */
export function parseCidr(text: string): Cidr | null {
  const slash = text.indexOf('/');
  const bytes = parseIp(slash < 0 ? text : text.slice(0, slash));
  if (!bytes) return null;
  const max = bytes.length * 8;
  if (slash < 0) return { bytes, prefix: max };
  const p = text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(p) || Number(p) > max) return null;
  return { bytes, prefix: Number(p) };
}

export function inCidr(address: IpBytes, block: Cidr): boolean {
  if (address.length !== block.bytes.length) return false;
  let bits = block.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((address[i] & mask) !== (block.bytes[i] & mask)) return false;
  }
  return true;
}

/** `::ffff:a.b.c.d` — the IPv4 address a dual-stack socket really reaches — or null. */
export function ipv4Mapped(address: IpBytes): IpBytes | null {
  if (address.length !== 16) return null;
  for (let i = 0; i < 10; i++) if (address[i] !== 0) return null;
  if (address[10] !== 0xff || address[11] !== 0xff) return null;
  return address.slice(12);
}
