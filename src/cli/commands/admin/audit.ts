import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { intOption } from '../../io/parse.js';
import { sinceOption } from '../../io/since.js';
import { printAudit } from '../../render/audit.js';
import type { AuditQuery } from '../../../client/audit.js';
import type { AuditEntry } from '../../../contract/audit.js';

export interface AuditOptions {
  actor?: string;
  action?: string;
  key?: string;
  target?: string;
  since?: string;
  until?: string;
  limit: number;
  cursor?: string;
  all?: boolean;
}

/** Options -> the pages asked for (one, or every one with --all) -> a table or the entries as JSON. */
export async function listPages(
  opts: AuditOptions,
  deps: Deps,
  fetchPage: (q: AuditQuery) => Promise<{ entries: AuditEntry[]; nextCursor: string | null }>,
): Promise<void> {
  const io = deps.io();
  const entries: AuditEntry[] = [];
  let cursor = opts.cursor;
  const query = {
    actor: opts.actor,
    action: opts.action,
    target: opts.key ?? opts.target,
    since: opts.since,
    until: opts.until,
    limit: opts.limit,
  };
  do {
    const page = await fetchPage({ ...query, cursor });
    entries.push(...page.entries);
    cursor = page.nextCursor ?? undefined;
  } while (opts.all && cursor);
  printAudit(io, entries);
  if (cursor) io.info(`more entries follow: --cursor ${cursor} for the next page, or --all for every page`);
}

/** The filter options `facet admin audit` and `facet audit` share. */
export function auditOptions(cmd: Command, deps: Deps): Command {
  return cmd
    .option('--actor <id>', 'only changes made by this user id or key id (or local-admin, system)')
    .option('--action <action>', 'only this action (key.frozen), or a prefix ending in * (key.*)')
    .option('--key <key-id>', 'only changes to this key')
    .option('--target <id>', 'only changes to this target (a user id, a LiveDoc id, …)')
    .option('--since <when>', 'only entries since: 30m, 24h, 7d, or an ISO date/time', sinceOption(deps.now))
    .option(
      '--until <when>',
      'only entries before: a duration back from now or an ISO date/time',
      sinceOption(deps.now),
    )
    .option('--limit <n>', 'entries per page (1-500)', intOption(1, 500), 100)
    .option('--cursor <cursor>', 'start after the page that printed this cursor')
    .option('--all', 'follow every page');
}

export function register(parent: Command, deps: Deps): void {
  auditOptions(
    parent
      .command('audit')
      .description(
        'The audit trail: every change to keys, users and settings, newest first (who, when, from where, before and after)',
      ),
    deps,
  )
    .addHelpText(
      'after',
      "\nExamples:\n  $ facet admin audit --since 24h\n  $ facet admin audit --key key_0123456789abcdef --action 'key.*'\n  $ facet admin audit --actor local-admin --json --jq '.[].action'",
    )
    .action(async (opts: AuditOptions) => {
      const api = await deps.api('audit');
      await listPages(opts, deps, (q) => api.audit.adminPage(q));
    });
}
