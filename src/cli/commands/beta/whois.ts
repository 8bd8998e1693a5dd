import type { Command } from 'commander';
import type { WhoisItem, WhoisResult } from '../../../contract/beta-seo.js';
import { WHOIS_LIMITS } from '../../../contract/beta-seo.js';
import type { Envelope } from '../../../client/beta.js';
import type { Deps } from '../../deps.js';
import { collect, intOption } from '../../io/parse.js';
import { printOutcome, taskResult } from './envelope-output.js';
import { compileFilterFlags } from './filter-expr.js';

export interface WhoisOptions {
  cursor?: string;
  filter?: string[];
  order?: string[];
  limit?: number;
  offset?: number;
  all?: boolean;
  tag?: string;
  raw?: boolean;
}

export async function run(opts: WhoisOptions, deps: Deps): Promise<void> {
  const api = await deps.api('beta');
  const io = deps.io();
  const task: Record<string, unknown> = {};
  const filters = compileFilterFlags(opts.filter);
  if (filters) task.filters = filters;
  if (opts.order?.length) task.order_by = opts.order;
  task.limit = opts.limit ?? (opts.all ? WHOIS_LIMITS.maxLimit : WHOIS_LIMITS.defaultLimit);
  if (opts.offset !== undefined) task.offset = opts.offset;
  if (opts.tag) task.tag = opts.tag;

  const envelopes: Envelope[] = [];
  let merged: WhoisResult | undefined;
  let token: string | null = opts.cursor ?? null;
  // --all follows offset_token: every other parameter stays as it was.
  do {
    const env = await api.beta.whois([token ? { ...task, offset_token: token } : task]);
    envelopes.push(env);
    const [page] = taskResult<WhoisResult>(env);
    if (!merged) merged = { ...page, items: [...page.items] };
    else merged.items.push(...page.items);
    token = opts.all ? page.offset_token : null;
  } while (token);
  const result = merged;
  result.items_count = result.items.length;
  if (opts.all) result.offset_token = null;
  printOutcome(io, opts, envelopes, [result], () => {
    io.table<WhoisItem>(
      result.items,
      [
        // The domain names the row: never cut; the registrar and paid count give way first at 80 columns.
        { header: 'DOMAIN', value: (i) => i.domain, priority: 1, whole: true },
        { header: 'REGISTRAR', value: (i) => i.registrar ?? '', priority: 3 },
        { header: 'EXPIRES', value: (i) => i.expiration_datetime?.slice(0, 10) ?? '' },
        { header: 'ORGANIC', value: (i) => i.metrics.organic.count, priority: 1 },
        { header: 'PAID', value: (i) => i.metrics.paid.count, priority: 3 },
        { header: 'BACKLINKS', value: (i) => i.backlinks_info.backlinks },
        { header: 'REF DOMAINS', value: (i) => i.backlinks_info.referring_domains },
      ],
      { empty: 'No domains match.' },
    );
    io.info(
      `${result.items_count} of ${result.total_count} domains${result.offset_token ? ` (more: --cursor ${result.offset_token}, or --all)` : ''}`,
    );
  });
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('whois')
    .description('Whois overview of domains with organic/paid metrics and backlink counts')
    .option(
      '--filter <expr>',
      "a condition such as 'metrics.organic.count > 1000' or 'registered = false'; repeat to AND them",
      collect,
    )
    .option('--order <field,dir>', 'an order rule (default metrics.organic.count,desc); repeat up to 3 times', collect)
    .option(
      '--limit <n>',
      `items per request (1-${WHOIS_LIMITS.maxLimit}, default 100; 1000 with --all)`,
      intOption(1, WHOIS_LIMITS.maxLimit),
    )
    .option('--offset <n>', 'skip this many items', intOption(0, WHOIS_LIMITS.maxOffset))
    .option('--cursor <token>', 'continue after an earlier page (the offset_token its "more:" names)')
    .option('--all', 'follow offset_token until every matching domain is read')
    .option('--tag <text>', 'a label echoed back in the task data (max 255 characters)')
    .option('--raw', 'print the whole provider envelope (with --all, one per request)')
    .addHelpText(
      'after',
      "\nExamples:\n  $ facet beta whois --filter 'tld = com' --filter 'backlinks_info.referring_domains > 100' --limit 5\n  $ facet beta whois --order backlinks_info.backlinks,desc --limit 3 --json",
    )
    .action((opts: WhoisOptions) => run(opts, deps));
}
