import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import * as token from './token.js';

export function register(program: Command, deps: Deps): void {
  const auth = program.command('auth').description('Credentials for scripts');
  token.register(auth, deps);
}
