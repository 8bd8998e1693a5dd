import type { Command } from 'commander';
import type { Deps } from '../deps.js';
import { auditOptions, listPages, type AuditOptions } from './admin/audit.js';

export function register(program: Command, deps: Deps): void {
  auditOptions(
    program
      .command('audit')
      .description('Your own audit entries: what you changed, and what was changed on your keys and account'),
    deps,
  )
    .addHelpText('after', '\nExamples:\n  $ facet audit --since 7d\n  $ facet audit --action key.deleted --json')
    .action(async (opts: AuditOptions) => {
      const api = await deps.api('audit');
      await listPages(opts, deps, (q) => api.audit.ownPage(q));
    });
}
