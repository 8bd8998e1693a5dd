import path from 'node:path';
import envPaths from 'env-paths';
import { JsonFile } from './config-file.js';

export const PROFILE_KEYS = [
  'base_url',
  'image_base_url',
  'api_key',
  'access_token',
  'admin_key',
  'default_livedoc',
] as const;
export type ProfileKey = (typeof PROFILE_KEYS)[number];
/** data_dir: where the `local` profile's server keeps its records (set by `facet serve`, for the offline verbs). */
export type Profile = Partial<Record<ProfileKey, string>> & { data_dir?: string };

export const SECRET_KEYS: ReadonlySet<ProfileKey> = new Set(['api_key', 'access_token', 'admin_key']);

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8787';

interface ConfigShape {
  current_profile?: string;
  profiles: Record<string, Profile>;
}

export function isProfileKey(key: string): key is ProfileKey {
  return (PROFILE_KEYS as readonly string[]).includes(key);
}

/**
 * Named profiles in one file, config.json, mode 0600, in $FACET_CONFIG_DIR or the OS config dir
 * (where the `conf` library kept it before, so existing set-ups carry over). Profile names are
 * plain keys: they may contain dots.
 */
export class ConfigStore {
  private readonly file: JsonFile<ConfigShape>;

  constructor(dir?: string) {
    const folder = dir ?? envPaths('facet', { suffix: '' }).config;
    this.file = new JsonFile<ConfigShape>(path.join(folder, 'config.json'), () => ({ profiles: {} }));
  }

  get path(): string {
    return this.file.path;
  }

  get currentProfile(): string | undefined {
    return this.file.read().current_profile;
  }

  setCurrentProfile(name: string): void {
    this.save({ ...this.file.read(), current_profile: name });
  }

  profiles(): Record<string, Profile> {
    return { ...(this.file.read().profiles ?? {}) };
  }

  profile(name: string): Profile | undefined {
    return this.profiles()[name];
  }

  update(name: string, patch: Profile): void {
    const all = this.profiles();
    all[name] = { ...all[name], ...patch };
    this.saveProfiles(all);
  }

  /** Writes the whole profile (a login that moves it to another server drops the old secrets). */
  replace(name: string, profile: Profile): void {
    this.saveProfiles({ ...this.profiles(), [name]: profile });
  }

  unset(name: string, keys: ProfileKey[]): void {
    const all = this.profiles();
    const p = { ...all[name] };
    for (const k of keys) delete p[k];
    all[name] = p;
    this.saveProfiles(all);
  }

  remove(name: string): void {
    const all = this.profiles();
    delete all[name];
    const { current_profile, ...rest } = this.file.read();
    this.save({ ...rest, ...(current_profile === name ? {} : { current_profile }), profiles: all });
  }

  private saveProfiles(profiles: Record<string, Profile>): void {
    this.save({ ...this.file.read(), profiles });
  }

  private save(value: ConfigShape): void {
    this.file.write(value);
  }
}

export interface ResolvedSettings {
  profileName: string;
  baseUrl: string;
  imageBaseUrl?: string;
  apiKey?: string;
  accessToken?: string;
  adminKey?: string;
  /** The LiveDoc `facet ask` answers from when no --livedoc is given. */
  defaultLivedoc?: string;
  /** Where each value came from, for `facet whoami` and `facet config list`. */
  sources: Partial<Record<ProfileKey, 'env' | 'flag' | 'profile' | 'default'>>;
}

/** Flags beat environment variables, which beat the profile, which beats the defaults. */
export function resolveSettings(
  store: ConfigStore,
  flags: { profile?: string; baseUrl?: string },
  env: NodeJS.ProcessEnv,
): ResolvedSettings {
  const profileName = flags.profile ?? env.FACET_PROFILE ?? store.currentProfile ?? 'default';
  const p = store.profile(profileName) ?? {};
  const sources: ResolvedSettings['sources'] = {};
  const pick = (key: ProfileKey, envName: string, flag?: string) => {
    if (flag) return ((sources[key] = 'flag'), flag);
    if (env[envName]) return ((sources[key] = 'env'), env[envName]);
    if (p[key]) return ((sources[key] = 'profile'), p[key]);
    return undefined;
  };
  let baseUrl = pick('base_url', 'FACET_BASE_URL', flags.baseUrl);
  if (!baseUrl) {
    baseUrl = DEFAULT_BASE_URL;
    sources.base_url = 'default';
  }
  return {
    profileName,
    baseUrl,
    imageBaseUrl: pick('image_base_url', 'FACET_IMAGE_BASE_URL'),
    apiKey: pick('api_key', 'FACET_API_KEY'),
    accessToken: pick('access_token', 'FACET_ACCESS_TOKEN'),
    adminKey: pick('admin_key', 'FACET_ADMIN_KEY'),
    defaultLivedoc: pick('default_livedoc', 'FACET_DEFAULT_LIVEDOC'),
    sources,
  };
}

/** The secrets a profile holds, by name. */
export function secretsOf(p: Profile | undefined): ProfileKey[] {
  return PROFILE_KEYS.filter((k) => SECRET_KEYS.has(k) && p?.[k]);
}

/**
 * True for what maskSecret prints (`fk_0sm4s…z6`, `••••`): pasted back as a credential it can
 * only fail, so login and `config set` refuse it before it replaces a working one.
 */
export function looksMasked(value: string): boolean {
  return value.includes('…') || value.includes('•');
}

/** Shows enough of a secret to recognise it, never enough to use it. */
export function maskSecret(value: string | undefined): string {
  if (!value) return '';
  if (value.length <= 12) return '••••';
  return `${value.slice(0, 8)}…${value.slice(-2)}`;
}
