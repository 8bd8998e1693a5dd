/**
 * Why an outbound fetch did not produce a response:
 * - refused: the fetch policy does not allow the address (or the scheme);
 * - invalid-url: not an absolute http(s) URL, or a redirect with an unusable Location;
 * - too-large: the body passed the caller's cap (reading stopped there);
 * - too-many-redirects: more hops than allowed;
 * - timeout: the whole fetch took longer than its time limit;
 * - network: DNS or connection failure, reset, TLS error.
 */
export type OutboundFailure = 'refused' | 'invalid-url' | 'too-large' | 'too-many-redirects' | 'timeout' | 'network';

/** The one error type of the outbound fetch; `message` is written for the person who gave the URL. */
export class OutboundFetchError extends Error {
  constructor(
    readonly kind: OutboundFailure,
    message: string,
    /** The URL being fetched when it failed (a redirect hop, not necessarily the first URL). */
    readonly url: string,
  ) {
    super(message);
    this.name = 'OutboundFetchError';
  }

  /** The same fetch may succeed later: the network, not the URL or the policy, failed. */
  get transient(): boolean {
    return this.kind === 'network' || this.kind === 'timeout';
  }
}
