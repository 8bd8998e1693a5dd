import type { Deps } from '../deps.js';
import { resolveSettings } from '../config/profiles.js';

export interface ProfileCheck {
  name: string;
  base_url: string;
  ok: boolean;
  detail: string;
}

/** Each other profile gets a quick look: a stale one should not hold `facet status` up. */
const OTHER_PROFILE_TIMEOUT_MS = 5000;

/**
 * One line per profile other than the one in use, as `gh auth status` shows every host: does its
 * server answer, and are its credentials accepted. Read from the config file alone: the
 * environment's overrides belong to the profile in use.
 */
export async function checkOtherProfiles(deps: Deps, current: string): Promise<ProfileCheck[]> {
  const store = await deps.config();
  const names = Object.keys(store.profiles()).filter((n) => n !== current);
  const { createApi, createTransport } = await import('../../client/index.js');
  return Promise.all(
    names.map(async (name): Promise<ProfileCheck> => {
      const s = resolveSettings(store, { profile: name }, {});
      const transport = createTransport({
        baseUrl: s.baseUrl,
        credentials: { apiKey: s.apiKey, accessToken: s.accessToken, adminKey: s.adminKey },
        userAgent: `facet-cli/${deps.version}`,
        timeoutMs: Number(deps.env.FACET_TIMEOUT_MS) || OTHER_PROFILE_TIMEOUT_MS,
      });
      const api = await createApi(transport, ['system', 'keys'] as const);
      const at = { name, base_url: s.baseUrl };
      try {
        await api.system.health();
      } catch (e) {
        return { ...at, ok: false, detail: `profile "${name}": ${s.baseUrl} does not answer: ${(e as Error).message}` };
      }
      if (!s.apiKey && !s.accessToken)
        return {
          ...at,
          ok: false,
          detail: `profile "${name}": ${s.baseUrl} answers; no credentials — run \`facet login --profile ${name}\``,
        };
      try {
        const who = await api.keys.whoami();
        return {
          ...at,
          ok: true,
          detail: `profile "${name}": ${s.baseUrl} answers; logged in as ${who.user.name} (${who.user.id}, ${who.user.role})`,
        };
      } catch (e) {
        const err = e as Error & { code?: string };
        return {
          ...at,
          ok: false,
          detail: `profile "${name}": ${s.baseUrl} answers; credentials refused: ${err.message}${err.code ? ` (${err.code})` : ''}`,
        };
      }
    }),
  );
}
