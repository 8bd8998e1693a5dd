import { backlinks, volume, whois } from '../contract/beta-seo.js';
import type { ProviderEnvelope } from '../contract/envelopes.js';
import type { z } from 'zod';
import { callRoute } from './call.js';
import type { Transport } from './transport.js';

export type Envelope = z.infer<typeof ProviderEnvelope>;

/** The beta data endpoints: SEO ones take an array of tasks and answer the provider envelope. */
export const betaClient = (t: Transport) => ({
  backlinks: (tasks: Array<Record<string, unknown>>) => callRoute(t, backlinks, { body: tasks }) as Promise<Envelope>,
  whois: (tasks: Array<Record<string, unknown>>) => callRoute(t, whois, { body: tasks }) as Promise<Envelope>,
  volume: (tasks: Array<Record<string, unknown>>) => callRoute(t, volume, { body: tasks }) as Promise<Envelope>,
});
