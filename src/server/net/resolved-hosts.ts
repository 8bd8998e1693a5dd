/** One address a host name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** How long one piece of work (a batch scrape's pool) reuses a host's resolution. */
export const RESOLVED_HOSTS_TTL_MS = 5_000;

/**
 * A short-lived memory of host name resolutions for the fetches of one piece of work (a batch scrape
 * reading many pages of one site asked DNS once per page). Only the resolution is reused: the policy
 * still checks every address on every fetch, and each connection is still pinned to the addresses
 * that check returned, so a name that now resolves elsewhere can only reach addresses the policy
 * allowed — the DNS-rebinding protection is unchanged; a change is merely seen up to the TTL later.
 * Failures are not kept. Concurrent asks for one host share one lookup.
 */
export class ResolvedHosts {
  private readonly entries = new Map<string, { at: number; addresses: Promise<ResolvedAddress[]> }>();

  constructor(
    private readonly ttlMs = RESOLVED_HOSTS_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  resolve(hostname: string, lookup: (hostname: string) => Promise<ResolvedAddress[]>): Promise<ResolvedAddress[]> {
    const t = this.now();
    const kept = this.entries.get(hostname);
    if (kept && t - kept.at < this.ttlMs) return kept.addresses;
    const addresses = lookup(hostname);
    const entry = { at: t, addresses };
    this.entries.set(hostname, entry);
    addresses.catch(() => {
      if (this.entries.get(hostname) === entry) this.entries.delete(hostname);
    });
    return addresses;
  }
}
