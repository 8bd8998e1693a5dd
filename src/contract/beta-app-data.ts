import { z } from 'zod';
import { defineRoute } from './route.js';
import { BetaErrorBody } from './errors.js';
import { ProviderEnvelope } from './envelopes.js';

/** App-store locations (spec 4.9, 2.13): the provider envelope; an unknown store is task error 40401. */

export const APP_STORES = ['google_play', 'apple'] as const;

export const AppLocation = z.object({
  location_code: z.number().int(),
  location_name: z.string(),
  location_name_parent: z.string().nullable().describe('null for a country'),
  country_iso_code: z.string(),
  location_type: z.string(),
});

export const appLocations = defineRoute({
  id: 'beta.seo.app-data.locations',
  method: 'GET',
  path: '/v1/beta/seo/app_data/{app_store}/locations',
  auth: 'bearer-key',
  family: 'beta',
  tag: 'beta-seo',
  summary: 'Locations an app store can be queried for (google_play, apple)',
  params: z.object({ app_store: z.string().describe(APP_STORES.join(' or ')) }),
  responses: { 200: ProviderEnvelope, 400: BetaErrorBody, 401: BetaErrorBody },
});

export const betaAppDataRoutes = [appLocations];
