import type { ProviderEnvelope } from './envelope.js';

/** The SEO endpoints a provider answers; each takes the request's JSON body (an array of tasks). */
export type SeoOperation = 'backlinks' | 'whois' | 'volume';

/**
 * A source of SEO data in the provider envelope: the local sandbox (deterministic seeded data,
 * filters and paging that apply) or an upstream compatible provider (pass-through).
 */
export interface SeoProvider {
  readonly kind: 'local' | 'upstream';
  /** `owner`: the API key or user asking (the local sandbox's CPU jobs take turns by it). */
  post(operation: SeoOperation, path: string, body: unknown, owner?: string): Promise<ProviderEnvelope>;
}
