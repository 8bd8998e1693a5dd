import { LRUCache } from 'lru-cache';
import type { TokenCheck } from './tokens.js';

/**
 * Remembers tokens whose signature already verified. A token is immutable, so its subject and
 * expiry never change; expiry is still compared with the clock on every use. Bounded: the least
 * recently used entry goes first. Saves the HMAC verification on every request of a busy client.
 */
export class VerifiedTokenCache {
  private readonly entries: LRUCache<string, { userId: string; exp: number }>;

  constructor(capacity = 1000) {
    this.entries = new LRUCache({ max: capacity });
  }

  get(token: string, now: Date): TokenCheck | undefined {
    const hit = this.entries.get(token);
    if (!hit) return undefined;
    if (hit.exp * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
    return { ok: true, userId: hit.userId, exp: hit.exp };
  }

  set(token: string, check: TokenCheck): void {
    if (!check.ok) return;
    this.entries.set(token, { userId: check.userId, exp: check.exp });
  }
}
