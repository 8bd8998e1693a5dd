import { APP_STORES } from '../../contract/beta-app-data.js';
import { TASK_STATUS } from '../../contract/beta-seo.js';
import { runEnvelope, TaskError, type ProviderEnvelope } from '../providers/beta/envelope.js';
import { LOCATIONS } from '../providers/beta/local/geo.js';

/** Locations per store: Google Play serves every known country, the App Store those with its storefront. */
const APPLE_STOREFRONTS = new Set(['US', 'GB', 'DE', 'FR', 'CA', 'AU', 'NL', 'ES', 'IT', 'JP', 'BR']);

export function appLocations(store: string, path: string): Promise<ProviderEnvelope> {
  return runEnvelope(path, [{ app_store: store }], () => {
    if (!(APP_STORES as readonly string[]).includes(store))
      throw new TaskError(TASK_STATUS.invalidPath, `unknown app store ${store}; stores: ${APP_STORES.join(', ')}`);
    const result = LOCATIONS.filter((l) => store === 'google_play' || APPLE_STOREFRONTS.has(l.iso)).map((l) => ({
      location_code: l.code,
      location_name: l.name,
      location_name_parent: null,
      country_iso_code: l.iso,
      location_type: 'Country',
    }));
    return { result, cost: 0 };
  });
}
