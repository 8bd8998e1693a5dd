import { Argument, type Command } from 'commander';
import type { Deps } from '../../deps.js';
import {
  looksMasked,
  maskSecret,
  PROFILE_KEYS,
  SECRET_KEYS,
  isProfileKey,
  secretsOf,
  type ProfileKey,
} from '../../config/profiles.js';
import { CliError, usageError } from '../../exit-codes.js';
import { confirm, readStdin } from '../../io/prompt.js';

function key(name: string): ProfileKey {
  if (!isProfileKey(name)) throw usageError(`unknown setting ${name}`, `settings: ${PROFILE_KEYS.join(', ')}`);
  return name;
}

/** The setting names, offered by completion; an unknown one is refused in key()'s words. */
const settingArgument = () =>
  new Argument('<key>', PROFILE_KEYS.join(' | ')).choices(PROFILE_KEYS).argParser((v: string) => v);

const show = (k: ProfileKey, v: string | undefined) => (v && SECRET_KEYS.has(k) ? maskSecret(v) : (v ?? ''));

/** The config verbs are a few lines each, so they share this file. */
export function register(program: Command, deps: Deps): void {
  const config = program.command('config').description(`Profiles and settings (${PROFILE_KEYS.join(', ')})`);

  config
    .command('list')
    .description('Show the effective settings of the current profile, and where each comes from')
    .action(async () => {
      const [store, s] = await Promise.all([deps.config(), deps.settings()]);
      const values: Record<ProfileKey, string | undefined> = {
        base_url: s.baseUrl,
        image_base_url: s.imageBaseUrl,
        api_key: s.apiKey,
        access_token: s.accessToken,
        admin_key: s.adminKey,
        default_livedoc: s.defaultLivedoc,
      };
      const io = deps.io();
      const rows = PROFILE_KEYS.map((k) => ({ key: k, value: show(k, values[k]), source: s.sources[k] ?? '' }));
      io.print(
        {
          profile: s.profileName,
          file: store.path,
          settings: Object.fromEntries(rows.map((r) => [r.key, { value: r.value || null, source: r.source || null }])),
        },
        () => {
          io.info(`profile ${s.profileName} (${store.path})`);
          io.table(rows, [
            { header: 'KEY', value: (r) => r.key },
            { header: 'VALUE', value: (r) => r.value },
            { header: 'SOURCE', value: (r) => r.source },
          ]);
        },
      );
    });

  config
    .command('get')
    .addArgument(settingArgument())
    .description('Print one setting of the current profile (secrets masked)')
    .action(async (name: string) => {
      const k = key(name);
      const [store, s] = await Promise.all([deps.config(), deps.settings()]);
      const value = store.profile(s.profileName)?.[k];
      if (value === undefined) throw new CliError(`${k} is not set in profile "${s.profileName}"`, 4);
      deps.io().print({ key: k, value: show(k, value) }, () => deps.io().write(show(k, value) + '\n'));
    });

  config
    .command('set')
    .addArgument(settingArgument())
    .argument('<value>', 'the value, or - to read it from stdin (keeps secrets out of shell history)')
    .description('Set one setting of the current profile')
    .action(async (name: string, value: string) => {
      const k = key(name);
      const v = value === '-' ? (await readStdin(deps.streams.stdin)).trim() : value;
      if ((k === 'base_url' || k === 'image_base_url') && !/^https?:\/\/[^\s]+$/.test(v))
        throw usageError(`${k} must be an http(s) URL`);
      if (SECRET_KEYS.has(k) && looksMasked(v))
        throw usageError(`that ${k} is a masked value (as \`facet config get\` prints it), not the secret itself`);
      const [store, s] = await Promise.all([deps.config(), deps.settings()]);
      store.update(s.profileName, { [k]: v });
      deps
        .io()
        .print({ profile: s.profileName, key: k, value: show(k, v) }, () =>
          deps.io().success(`set ${k} in profile "${s.profileName}"`),
        );
    });

  config
    .command('unset')
    .addArgument(settingArgument())
    .description('Remove one setting from the current profile')
    .action(async (name: string) => {
      const k = key(name);
      const [store, s] = await Promise.all([deps.config(), deps.settings()]);
      store.unset(s.profileName, [k]);
      deps
        .io()
        .print({ profile: s.profileName, key: k, removed: true }, () =>
          deps.io().success(`unset ${k} in profile "${s.profileName}"`),
        );
    });

  const profiles = config.command('profiles').description('List (default) or delete profiles');

  profiles
    .command('list', { isDefault: true })
    .description('List the profiles; * marks the current one')
    .action(async () => {
      const [store, s] = await Promise.all([deps.config(), deps.settings()]);
      const rows = Object.entries(store.profiles()).map(([name, p]) => ({
        name,
        current: name === s.profileName,
        base_url: p.base_url ?? null,
        credentials: secretsOf(p),
      }));
      const io = deps.io();
      io.print(rows, () =>
        io.table(
          rows,
          [
            { header: '', value: (r) => (r.current ? '*' : '') },
            { header: 'PROFILE', value: (r) => r.name },
            { header: 'BASE URL', value: (r) => r.base_url ?? '' },
            { header: 'CREDENTIALS', value: (r) => r.credentials.join(', ') },
          ],
          { empty: 'No profiles yet: run `facet login` or `facet serve`.' },
        ),
      );
    });

  profiles
    .command('delete')
    .argument('<profile>', 'profile name')
    .description('Delete a profile; one that still holds credentials needs a confirmation (--yes)')
    .addHelpText('after', '\nExample:\n  $ facet logout --all && facet config profiles delete ci')
    .action(async (name: string) => {
      const store = await deps.config();
      const profile = store.profile(name);
      if (!profile) throw new CliError(`no profile named "${name}"`, 4, 'see `facet config profiles`');
      const secrets = secretsOf(profile);
      if (secrets.length > 0) await confirm(deps, `Profile "${name}" still holds ${secrets.join(', ')}. Delete it?`);
      const wasCurrent = store.currentProfile === name;
      store.remove(name);
      const io = deps.io();
      io.print({ profile: name, deleted: true }, () => {
        io.success(`deleted profile "${name}"`);
        if (wasCurrent) io.info('no profile is current now: `facet config use NAME` picks one');
      });
    });

  config
    .command('use')
    .argument('<profile>', 'profile name')
    .description('Make a profile the current one')
    .action(async (name: string) => {
      const store = await deps.config();
      if (!store.profile(name)) throw new CliError(`no profile named "${name}"`, 4, 'see `facet config profiles`');
      store.setCurrentProfile(name);
      deps.io().print({ current_profile: name }, () => deps.io().success(`profile "${name}" is now current`));
    });
}
