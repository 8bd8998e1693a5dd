/**
 * Locations and languages the local SEO provider knows (provider-style codes: 2000 + ISO 3166
 * numeric for countries). `adEngine` marks where use_clickstream=false can use ad-engine volume.
 */
export interface Location {
  code: number;
  name: string;
  iso: string;
  adEngine: boolean;
}

export const LOCATIONS: readonly Location[] = [
  { code: 2840, name: 'United States', iso: 'US', adEngine: true },
  { code: 2826, name: 'United Kingdom', iso: 'GB', adEngine: true },
  { code: 2276, name: 'Germany', iso: 'DE', adEngine: true },
  { code: 2250, name: 'France', iso: 'FR', adEngine: true },
  { code: 2124, name: 'Canada', iso: 'CA', adEngine: true },
  { code: 2036, name: 'Australia', iso: 'AU', adEngine: true },
  { code: 2528, name: 'Netherlands', iso: 'NL', adEngine: false },
  { code: 2724, name: 'Spain', iso: 'ES', adEngine: false },
  { code: 2380, name: 'Italy', iso: 'IT', adEngine: false },
  { code: 2076, name: 'Brazil', iso: 'BR', adEngine: false },
  { code: 2392, name: 'Japan', iso: 'JP', adEngine: false },
  { code: 2356, name: 'India', iso: 'IN', adEngine: false },
];

export const LANGUAGES: ReadonlyArray<{ code: string; name: string }> = [
  { code: 'en', name: 'English' },
  { code: 'de', name: 'German' },
  { code: 'fr', name: 'French' },
  { code: 'es', name: 'Spanish' },
  { code: 'it', name: 'Italian' },
  { code: 'nl', name: 'Dutch' },
  { code: 'pt', name: 'Portuguese' },
  { code: 'ja', name: 'Japanese' },
  { code: 'hi', name: 'Hindi' },
];

export const findLocation = (by: { code?: number; name?: string }): Location | undefined =>
  LOCATIONS.find((l) => (by.code !== undefined ? l.code === by.code : l.name.toLowerCase() === by.name?.toLowerCase()));

export const findLanguage = (by: { code?: string; name?: string }) =>
  LANGUAGES.find((l) =>
    by.code !== undefined ? l.code === by.code.toLowerCase() : l.name.toLowerCase() === by.name?.toLowerCase(),
  );
