import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { registerBetaSocial } from './social/index.js';

export function register(program: Command, deps: Deps): void {
  const beta = program.command('beta').description('Beta data endpoints (/v1/beta)');
  registerBetaSocial(beta, deps);
}
