import { Agent } from 'undici';
import { pinnedLookup } from './pinned-lookup.js';
import type { CheckedTarget } from './policy.js';
import { ResolvedHosts } from './resolved-hosts.js';

/**
 * Keep-alive connections for many fetches of one piece of work (a batch scrape), so each page
 * does not pay a new TCP and TLS handshake. A connection is reused only for the same origin AND the
 * same addresses the policy checked for it: every fetch still runs the policy check first, and a
 * host that now resolves elsewhere gets a new pinned connection, never the old one. The owner
 * closes the pool when its work ends.
 */
export class ConnectionPool {
  private readonly agents = new Map<string, Agent>();
  private closed = false;
  /** The pool's fetches resolve a host once per few seconds, not once per page (resolved-hosts.ts). */
  readonly resolvedHosts = new ResolvedHosts();

  constructor(private readonly connectTimeoutMs = 10_000) {}

  agentFor(target: CheckedTarget): Agent {
    if (this.closed) throw new Error('the connection pool is closed');
    const key = `${target.url.origin}|${target.addresses.map((a) => a.address).join(',')}`;
    let agent = this.agents.get(key);
    if (!agent) {
      agent = new Agent({
        connect: { lookup: pinnedLookup(target.addresses), timeout: this.connectTimeoutMs },
        keepAliveTimeout: 10_000,
      });
      this.agents.set(key, agent);
    }
    return agent;
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.agents.values()];
    this.agents.clear();
    await Promise.all(all.map((a) => a.destroy().catch(() => undefined)));
  }
}
