import type { Kysely } from 'kysely';
import type { Database } from './store/database.js';
import type { Store } from './store/store.js';
import type { JobQueue } from './jobs/queue.js';

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
  /** Jobs run at once by this server (`--workers`). */
  workers: number;
  /** The Chromium the screenshot engine drives (`--chromium`, FACET_CHROMIUM). */
  chromiumPath: string;
  /** Largest accepted upload per file, in bytes (`--max-upload-mb`). */
  maxUploadBytes: number;
}

/** What every service needs, built once per server and handed down; no module singletons. */
export interface AppContext {
  config: ServerConfig;
  store: Store;
  db: Kysely<Database>;
  now: () => Date;
  /** HMAC secret for access tokens, read once at start-up. */
  tokenSecret: Uint8Array;
  /** The address the server listens on, known once it does. */
  baseUrl: string;
  /** The durable job queue every async task runs through. */
  jobs: JobQueue;
}
