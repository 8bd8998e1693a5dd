import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AppContext } from './context.js';
import { countUsers, findUserById } from './store/users.repo.js';
import { getSetting, setSetting } from './store/settings.repo.js';
import { createUser, issueAccessToken } from './services/users.service.js';
import { createKey } from './services/keys.service.js';
import { generateAdminKey, hashSecret } from './auth/secrets.js';
import { withExclusiveLock } from './store/dialect/locks.js';
import { LOCAL_ADMIN } from './services/audit.service.js';

/** What `facet login --local` and the `local` profile read; written with mode 0600. */
export interface BootstrapFile {
  base_url: string;
  user_id: string;
  access_token: string;
  access_token_expires_at: string;
  api_key: string | null;
  admin_key: string | null;
}

export const BOOTSTRAP_FILE = 'bootstrap.json';

export function readBootstrap(dataDir: string): BootstrapFile | null {
  const file = path.join(dataDir, BOOTSTRAP_FILE);
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, 'utf8')) as BootstrapFile;
}

function writeBootstrap(dataDir: string, data: BootstrapFile): void {
  const file = path.join(dataDir, BOOTSTRAP_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(data, null, 2) + '\n', { mode: 0o600 });
  renameSync(tmp, file);
}

export interface BootstrapResult {
  /** True on the first start of an empty data dir. */
  created: boolean;
  data: BootstrapFile;
}

/** The credentials of a start, before the address is known (it is, once the server listens). */
export interface BootstrapRecords {
  created: boolean;
  credentials: Omit<BootstrapFile, 'base_url'>;
}

/**
 * First start of an empty store: an admin user, an API key and an admin key. Every start: a fresh
 * access token. Secrets known only at creation (the key, the admin key) are carried over from the
 * previous bootstrap.json. Several instances starting together on one empty PostgreSQL take turns
 * under one lock: the first creates the admin and the admin key, the others find and use them.
 */
export async function bootstrapRecords(ctx: AppContext): Promise<BootstrapRecords> {
  const { dataDir } = ctx.config;
  // Made by the server at its start, on its own authority: named as this instance's.
  const firstStart = { ...LOCAL_ADMIN, instanceId: ctx.config.instanceId };
  const previous = dataDir ? readBootstrap(dataDir) : null;
  let apiKey = previous?.api_key ?? null;
  let adminKey = previous?.admin_key ?? null;
  const { created, userId } = await withExclusiveLock(ctx.db, 'facet:bootstrap', async () => {
    let userId = await getSetting(ctx.db, 'bootstrap_user_id');
    let created = false;
    if ((await countUsers(ctx.db)) === 0) {
      created = true;
      const admin = await createUser(ctx, { name: 'admin', role: 'admin', plan: 'paid', credits: 1000 }, firstStart);
      userId = admin.id;
      await setSetting(ctx.db, 'bootstrap_user_id', admin.id);
      apiKey = (await createKey(ctx, { userId: admin.id, name: 'bootstrap' }, firstStart)).key;
    }
    if (!userId || !(await findUserById(ctx.db, userId)))
      throw new Error('the database has users but no bootstrap admin');
    if (ctx.config.adminKey) adminKey = ctx.config.adminKey;
    else if (!(await getSetting(ctx.db, 'admin_key_hash'))) adminKey = generateAdminKey();
    if (adminKey) await setSetting(ctx.db, 'admin_key_hash', hashSecret(adminKey));
    return { created, userId };
  });
  const token = await issueAccessToken(ctx, userId, ctx.config.accessTokenTtlSeconds, firstStart);
  return {
    created,
    credentials: {
      user_id: userId,
      access_token: token.token,
      access_token_expires_at: token.expiresAt,
      api_key: apiKey,
      admin_key: adminKey,
    },
  };
}

/**
 * bootstrap.json for the running server, written only with a data dir. Its base URL is the listen
 * address, not --public-url: the file is read on this machine (the `local` profile, login --local).
 */
export function writeBootstrapFile(ctx: AppContext, records: BootstrapRecords, listenUrl: string): BootstrapResult {
  const data: BootstrapFile = { base_url: listenUrl, ...records.credentials };
  if (ctx.config.dataDir) writeBootstrap(ctx.config.dataDir, data);
  return { created: records.created, data };
}
