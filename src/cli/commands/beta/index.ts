import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import * as scrape from './scrape/index.js';

/** `facet beta …`: the /v1/beta surfaces, one sub-group each. */
export function register(program: Command, deps: Deps): void {
  const beta = program.command('beta').description('Beta data endpoints (/v1/beta)');
  scrape.register(beta, deps);
}
