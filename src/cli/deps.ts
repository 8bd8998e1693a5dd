import type { IO } from './io/output.js';
import type { ConfigStore, ResolvedSettings } from './config/profiles.js';
import type { ApiOf, ClientName } from '../client/index.js';

export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  json?: boolean;
  jq?: string;
  quiet?: boolean;
  wide?: boolean;
  color?: boolean;
  input?: boolean;
  debug?: boolean;
  yes?: boolean;
}

export interface Streams {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/**
 * What every command gets: IO, lazy config and API access, the environment and a clock. Built
 * once in main.ts; tests build their own. A command that never calls the API never reads
 * credentials, and one that never reads config never loads conf.
 */
export interface Deps {
  streams: Streams;
  env: NodeJS.ProcessEnv;
  now: () => Date;
  version: string;
  globals(): GlobalOptions;
  io(): IO;
  config(): Promise<ConfigStore>;
  settings(): Promise<ResolvedSettings>;
  /** The clients of the surfaces a command uses (each loads its own contract), over one transport. */
  api<K extends ClientName = never>(...groups: K[]): Promise<ApiOf<NoInfer<K>>>;
  /** True when the CLI may ask questions: a TTY on stdin and stderr, not CI, not --no-input. */
  canPrompt(): boolean;
}
