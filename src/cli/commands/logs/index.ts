import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import * as tail from './tail.js';

export function register(program: Command, deps: Deps): void {
  const logs = program.command('logs').description('The live request log of the platform');
  tail.register(logs, deps);
}
