import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { makeNewFilesPrivate } from '../../../server/files/private.js';
import * as start from './start.js';
import * as users from './users.js';
import * as token from './token.js';
import * as usage from './usage.js';
import * as share from './share.js';
import * as seed from './seed.js';
import * as social from './social.js';
import * as data from './data.js';
import * as subtitles from './subtitles.js';
import * as migrate from './migrate.js';

export function register(program: Command, deps: Deps): void {
  const serve = start.register(program, deps);
  // What the server and the data-dir verbs write is private (0600 files, 0700 folders): the umask is
  // set here, at the CLI's entry to them, and applies to every `facet serve …` subcommand too.
  serve.hook('preAction', () => makeNewFilesPrivate());
  users.register(serve, deps);
  token.register(serve, deps);
  usage.register(serve, deps);
  share.register(serve, deps);
  seed.register(serve, deps);
  social.register(serve, deps);
  data.register(serve, deps);
  subtitles.register(serve, deps);
  migrate.register(serve, deps);
}
