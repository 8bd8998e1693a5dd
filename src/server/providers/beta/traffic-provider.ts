import type { TrafficQuery, TrafficResult } from '../../../contract/beta-traffic.js';

/** A source of landing-page traffic: the local seeded store or an upstream compatible provider. */
export interface TrafficProvider {
  readonly kind: 'local' | 'upstream';
  landingPages(query: TrafficQuery): Promise<TrafficResult>;
}
