import { backlinks, volume, whois } from '../contract/beta-seo.js';
import type { ProviderEnvelope } from '../contract/envelopes.js';
import type { z } from 'zod';
import { incomeStatements, insiderTrades, type IncomeQuery, type InsiderQuery } from '../contract/beta-financial.js';
import { landingPages, type TrafficQuery } from '../contract/beta-traffic.js';
import { appLocations } from '../contract/beta-app-data.js';
import { reviewTaskCallbacks, reviewTaskGet, reviewTaskPost, reviewTasksReady } from '../contract/beta-reviews.js';
import { callRoute } from './call.js';
import type { Transport } from './transport.js';

export type Envelope = z.infer<typeof ProviderEnvelope>;

/** The beta data endpoints: SEO ones take an array of tasks and answer the provider envelope. */
export const betaClient = (t: Transport) => ({
  backlinks: (tasks: Array<Record<string, unknown>>) => callRoute(t, backlinks, { body: tasks }),
  whois: (tasks: Array<Record<string, unknown>>) => callRoute(t, whois, { body: tasks }),
  volume: (tasks: Array<Record<string, unknown>>) => callRoute(t, volume, { body: tasks }),
  reviewPost: (platform: string, tasks: Array<Record<string, unknown>>) =>
    callRoute(t, reviewTaskPost, { params: { platform }, body: tasks }),
  reviewsReady: (platform: string) => callRoute(t, reviewTasksReady, { params: { platform } }),
  reviewGet: (platform: string, id: string) => callRoute(t, reviewTaskGet, { params: { platform, id } }),
  reviewCallbacks: (platform: string, id: string) => callRoute(t, reviewTaskCallbacks, { params: { platform, id } }),
  appLocations: (store: string) => callRoute(t, appLocations, { params: { app_store: store } }),
  incomeStatements: (query: Partial<IncomeQuery>) => callRoute(t, incomeStatements, { query: query as IncomeQuery }),
  insiderTrades: (query: InsiderQuery) => callRoute(t, insiderTrades, { query }),
  landingPages: (query: Omit<TrafficQuery, 'main_domain_only'> & { main_domain_only?: 'true' | 'false' }) =>
    callRoute(t, landingPages, { query }),
});
