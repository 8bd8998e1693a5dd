import { HttpError } from '../../errors.js';

export interface GatewayLimitOptions {
  /** Calls one key may have in flight at once; beyond it, 429 with Retry-After. */
  perKeyConcurrency: number;
  /** Calls the whole gateway may have in flight; beyond it, 503 with Retry-After. */
  totalConcurrency: number;
}

export const DEFAULT_LIMITS: GatewayLimitOptions = { perKeyConcurrency: 32, totalConcurrency: 512 };

/**
 * Concurrency limits of the gateway: they protect the upstreams and this process. Clients are told
 * to retry with backoff on 429 and 503 (spec 7.2), so both carry Retry-After.
 */
export class GatewayLimits {
  private total = 0;
  private perKey = new Map<string, number>();

  constructor(private readonly options: GatewayLimitOptions = DEFAULT_LIMITS) {}

  /** Takes a slot for one call; the returned function gives it back (idempotent). */
  acquire(who: string): () => void {
    const mine = this.perKey.get(who) ?? 0;
    if (mine >= this.options.perKeyConcurrency) {
      throw new HttpError(
        'rate_limit_exceeded',
        `Too many concurrent model calls for this key (limit ${this.options.perKeyConcurrency}); retry shortly`,
        {
          status: 429,
          headers: { 'retry-after': '1' },
        },
      );
    }
    if (this.total >= this.options.totalConcurrency) {
      throw new HttpError('overloaded', 'The model gateway is at capacity; retry shortly', {
        status: 503,
        headers: { 'retry-after': '1' },
      });
    }
    this.total++;
    this.perKey.set(who, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const left = (this.perKey.get(who) ?? 1) - 1;
      if (left <= 0) this.perKey.delete(who);
      else this.perKey.set(who, left);
    };
  }
}
