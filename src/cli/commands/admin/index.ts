import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import * as keys from './keys/index.js';
import * as usage from './usage.js';
import * as models from './models/index.js';
import * as audit from './audit.js';

export function register(program: Command, deps: Deps): void {
  const admin = program
    .command('admin')
    .description(
      "Administer every user's keys, read usage and the audit trail (needs an admin's API key; usage also the admin key)",
    );
  keys.register(admin, deps);
  usage.register(admin, deps);
  models.register(admin, deps);
  audit.register(admin, deps);
}
