import { lookup as dnsLookup } from 'node:dns/promises';
import { addressClass, describeClass, type AddressClass } from './address-class.js';
import { OutboundFetchError } from './errors.js';
import { formatIp, inCidr, ipv4Mapped, parseCidr, parseIp, type Cidr, type IpAddress } from './ip.js';
import type { ResolvedAddress, ResolvedHosts } from './resolved-hosts.js';

export type { ResolvedAddress };

/** Resolves a host name to every address it has (the system resolver by default; tests inject one). */
export type Lookup = (hostname: string) => Promise<ResolvedAddress[]>;

const systemLookup: Lookup = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/** A URL the policy allows, with the addresses a connection to it may use (checked, in resolver order). */
export interface CheckedTarget {
  url: URL;
  /** The host name without IPv6 brackets: what TLS SNI and the Host header carry. */
  hostname: string;
  port: number;
  addresses: ResolvedAddress[];
}

type Allowance = { kind: 'host'; host: string } | { kind: 'cidr'; block: Cidr; text: string };

/** A malformed `--allow-fetch-from` entry; the CLI turns it into a usage error by this name. */
export class InvalidAllowance extends Error {
  override name = 'InvalidAllowance';
}

/**
 * One `--allow-fetch-from` entry: a host name (matched against the URL's host, any port, whatever
 * it resolves to), or an IP address or CIDR block (matched against every resolved address).
 */
export function parseAllowance(entry: string): Allowance {
  const text = entry.trim();
  const usage = `--allow-fetch-from ${JSON.stringify(entry)}: expected a host name, an IP address or a CIDR block (e.g. docs.local, 127.0.0.1, 10.0.0.0/8, fd00::/8)`;
  if (!text) throw new InvalidAllowance(usage);
  if (text.includes('/')) {
    const block = parseCidr(text);
    if (!block) throw new InvalidAllowance(usage);
    return { kind: 'cidr', block, text: `${formatIp(block[0])}/${block[1]}` };
  }
  const ip = parseIp(text);
  if (ip) return { kind: 'cidr', block: parseCidr(formatIp(ip))!, text: formatIp(ip) };
  // Ports, paths and credentials are not part of an allowance; the URL parser normalises the
  // rest (case, IDN to punycode, odd IPv4 forms) exactly as it does for the URLs we fetch.
  if (/[:/?#@\s]/.test(text)) throw new InvalidAllowance(usage);
  let hostname: string;
  try {
    hostname = new URL(`http://${text}/`).hostname;
  } catch {
    throw new InvalidAllowance(usage);
  }
  const asIp = parseIp(hostname);
  if (asIp) return { kind: 'cidr', block: parseCidr(formatIp(asIp))!, text: formatIp(asIp) };
  return { kind: 'host', host: stripDot(hostname) };
}

const stripDot = (host: string) => (host.endsWith('.') ? host.slice(0, -1) : host);
const unbracket = (host: string) => (host.startsWith('[') ? host.slice(1, -1) : host);

/**
 * The outbound fetch policy: which addresses the platform may fetch on a user's behalf. Public
 * addresses are allowed; loopback, private, link-local, CGNAT, multicast, unspecified, broadcast and
 * reserved ones are refused unless an allowance (`facet serve --allow-fetch-from`) opens them.
 */
export class FetchPolicy {
  private readonly allowances: Allowance[];

  constructor(
    allowFrom: readonly string[] = [],
    private readonly lookup: Lookup = systemLookup,
  ) {
    this.allowances = allowFrom.map(parseAllowance);
  }

  /** The allowances in normalised form, for the start-up banner. */
  get allowed(): string[] {
    return this.allowances.map((a) => (a.kind === 'host' ? a.host : a.text));
  }

  /**
   * This policy plus one host the operator configured (a data upstream's base URL), allowed as if
   * given with --allow-fetch-from; every other address is judged exactly as before.
   */
  allowing(host: string): FetchPolicy {
    return new FetchPolicy([...this.allowed, host], this.lookup);
  }

  /**
   * Resolves the URL's host once and keeps the addresses the policy allows; throws a refusal that
   * names the address class and the option when none is allowed. The caller must connect to the
   * returned addresses and nothing else (no second resolution: no DNS-rebinding gap). With
   * `resolvedHosts` (one piece of work's recent resolutions) the host may not be resolved again, but
   * its addresses are checked here all the same.
   */
  async check(
    input: URL | string,
    context: { redirectedFrom?: string; resolvedHosts?: ResolvedHosts } = {},
  ): Promise<CheckedTarget> {
    let url: URL;
    try {
      url = typeof input === 'string' ? new URL(input) : input;
    } catch {
      throw new OutboundFetchError('invalid-url', `not a valid URL: ${String(input)}`, String(input));
    }
    const shown = url.href + (context.redirectedFrom ? ` (redirected from ${context.redirectedFrom})` : '');
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new OutboundFetchError(
        'invalid-url',
        `refused to fetch ${shown}: only http and https URLs are fetched`,
        url.href,
      );
    }
    const hostname = unbracket(url.hostname);
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    const literal = parseIp(hostname);
    const hostAllowed = !literal && this.allowances.some((a) => a.kind === 'host' && a.host === stripDot(hostname));

    let resolved: ResolvedAddress[];
    if (literal) resolved = [{ address: formatIp(literal), family: literal.kind() === 'ipv4' ? 4 : 6 }];
    else {
      try {
        resolved = context.resolvedHosts
          ? await context.resolvedHosts.resolve(stripDot(hostname), this.lookup)
          : await this.lookup(stripDot(hostname));
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
        throw new OutboundFetchError('network', `cannot resolve ${hostname} (${code})`, url.href);
      }
      if (resolved.length === 0)
        throw new OutboundFetchError('network', `cannot resolve ${hostname} (no address)`, url.href);
    }
    if (hostAllowed) return { url, hostname, port, addresses: resolved };

    const allowed: ResolvedAddress[] = [];
    let refused: { address: string; cls: AddressClass } | undefined;
    for (const r of resolved) {
      const ip = parseIp(r.address);
      const cls: AddressClass | null = ip ? (this.cidrAllows(ip) ? null : addressClass(ip)) : 'reserved';
      if (cls) refused ??= { address: r.address, cls };
      else allowed.push(r);
    }
    // Only the allowed addresses are ever connected to, so a name with a mix is still safe to use.
    if (allowed.length > 0) return { url, hostname, port, addresses: allowed };
    const { address, cls } = refused!;
    const bits = address.includes(':') ? 128 : 32;
    const reason = literal
      ? `${address} is ${describeClass(cls)}; facet serve --allow-fetch-from ${address} allows it`
      : `${hostname} resolves to ${address}, ${describeClass(cls)}; facet serve --allow-fetch-from ${stripDot(hostname)} (or ${address}/${bits}) allows it`;
    throw new OutboundFetchError('refused', `refused to fetch ${shown}: ${reason}`, url.href);
  }

  private cidrAllows(address: IpAddress): boolean {
    const mapped = ipv4Mapped(address);
    return this.allowances.some(
      (a) => a.kind === 'cidr' && (inCidr(address, a.block) || (mapped !== null && inCidr(mapped, a.block))),
    );
  }
}
