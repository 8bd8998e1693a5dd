import type { Kysely } from 'kysely';
import type { Database } from './store/database.js';
import type { Store } from './store/store.js';
import type { VerifiedTokenCache } from './auth/token-cache.js';

export interface ServerConfig {
  host: string;
  port: number;
  /** null with --memory: nothing is written to disk but temporary task files. */
  dataDir: string | null;
  /** Where uploads and task outputs go (a temp dir with --memory). */
  filesDir: string;
  adminKey?: string;
  logLevel: string;
  accessTokenTtlSeconds: number;
  version: string;
}

/** What every service needs, built once per server and handed down; no module singletons. */
export interface AppContext {
  config: ServerConfig;
  store: Store;
  db: Kysely<Database>;
  now: () => Date;
  /** HMAC secret for access tokens, read once at start-up. */
  tokenSecret: Uint8Array;
  tokenCache: VerifiedTokenCache;
  /** The address the server listens on, known once it does. */
  baseUrl: string;
}
