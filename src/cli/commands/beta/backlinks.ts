import { Option, type Command } from 'commander';
import type { BacklinkItem, BacklinkResult } from '../../../contract/beta-seo.js';
import { BACKLINKS_LIMITS } from '../../../contract/beta-seo.js';
import type { Envelope } from '../../../client/beta.js';
import type { Deps } from '../../deps.js';
import { collect, intOption } from '../../io/parse.js';
import { printOutcome, taskResult } from './envelope-output.js';
import { compileFilterFlags } from './filter-expr.js';

export interface BacklinksOptions {
  cursor?: string;
  mode?: string;
  filter?: string[];
  order?: string[];
  limit?: number;
  offset?: number;
  all?: boolean;
  status?: string;
  internal?: boolean;
  subdomains?: boolean;
  rankScale?: string;
  tag?: string;
  raw?: boolean;
}

export async function run(target: string, opts: BacklinksOptions, deps: Deps): Promise<void> {
  const api = await deps.api('beta');
  const io = deps.io();
  const task: Record<string, unknown> = { target };
  if (opts.mode) task.mode = opts.mode;
  if (opts.status) task.backlinks_status_type = opts.status;
  if (opts.internal) task.exclude_internal_backlinks = false;
  if (opts.subdomains === false) task.include_subdomains = false;
  if (opts.rankScale) task.rank_scale = opts.rankScale;
  const filters = compileFilterFlags(opts.filter);
  if (filters) task.filters = filters;
  if (opts.order?.length) task.order_by = opts.order;
  task.limit = opts.limit ?? (opts.all ? BACKLINKS_LIMITS.maxLimit : BACKLINKS_LIMITS.defaultLimit);
  if (opts.offset !== undefined) task.offset = opts.offset;
  if (opts.tag) task.tag = opts.tag;

  const envelopes: Envelope[] = [];
  let merged: BacklinkResult | undefined;
  let token: string | null = opts.cursor ?? null;
  // --all follows search_after_token: every other parameter stays as it was (spec 4.9).
  do {
    const env = await api.beta.backlinks([token ? { ...task, search_after_token: token } : task]);
    envelopes.push(env);
    const [page] = taskResult<BacklinkResult>(env);
    if (!merged) merged = { ...page, items: [...page.items] };
    else merged.items.push(...page.items);
    token = opts.all ? page.search_after_token : null;
  } while (token);
  const result = merged;
  result.items_count = result.items.length;
  if (opts.all) result.search_after_token = null;
  printOutcome(io, opts, envelopes, [result], () => {
    io.table<BacklinkItem>(
      result.items,
      [
        // A URL cut short names no page: at 80 columns FROM stays whole and TO is left out before
        // either is cut; the anchor gives way first.
        { header: 'RANK', value: (i) => i.rank, priority: 1 },
        { header: 'FROM', value: (i) => i.url_from, priority: 1, whole: true },
        { header: 'TO', value: (i) => i.url_to, priority: 3, whole: true },
        { header: 'ANCHOR', value: (i) => i.anchor ?? `(${i.item_type})`, priority: 2, min: 12 },
        { header: 'DOFOLLOW', value: (i) => (i.dofollow ? 'yes' : 'no'), priority: 2 },
        { header: 'FIRST SEEN', value: (i) => i.first_seen?.slice(0, 10) ?? '', priority: 2 },
      ],
      { empty: 'No backlinks match.' },
    );
    io.info(
      `${result.items_count} of ${result.total_count} backlinks${result.search_after_token ? ` (more: --cursor ${result.search_after_token}, or --all)` : ''}`,
    );
  });
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('backlinks')
    .argument('<target>', 'domain or subdomain (no scheme, no www), or an absolute page URL')
    .description('Backlinks of a domain or page, filtered and ordered by the provider')
    .addOption(
      new Option('--mode <mode>', 'as_is, one link per referring domain, or one per anchor').choices([
        'as_is',
        'one_per_domain',
        'one_per_anchor',
      ]),
    )
    .option(
      '--filter <expr>',
      "a condition such as 'rank > 50' or 'anchor ilike \"%shoes%\"'; repeat to AND them",
      collect,
    )
    .option('--order <field,dir>', 'an order rule such as rank,desc; repeat up to 3 times', collect)
    .option(
      '--limit <n>',
      `items per request (1-${BACKLINKS_LIMITS.maxLimit}, default 100; 1000 with --all)`,
      intOption(1, BACKLINKS_LIMITS.maxLimit),
    )
    .option(
      '--offset <n>',
      `skip this many items (0-${BACKLINKS_LIMITS.maxOffset})`,
      intOption(0, BACKLINKS_LIMITS.maxOffset),
    )
    .option('--cursor <token>', 'continue after an earlier page (the search_after_token its "more:" names)')
    .option('--all', 'follow search_after_token until every matching backlink is read')
    .addOption(new Option('--status <type>', 'live (default), lost or all backlinks').choices(['live', 'lost', 'all']))
    .option('--internal', 'include links from the target itself')
    .option('--no-subdomains', "leave out links to the target's subdomains")
    .addOption(
      new Option('--rank-scale <scale>', 'ranks 0-1000 (default) or 0-100').choices(['one_thousand', 'one_hundred']),
    )
    .option('--tag <text>', 'a label echoed back in the task data (max 255 characters)')
    .option('--raw', 'print the whole provider envelope (with --all, one per request)')
    .addHelpText(
      'after',
      "\nExamples:\n  $ facet beta backlinks example.com --filter 'rank > 500' --filter 'dofollow = true' --order rank,desc --limit 5\n  $ facet beta backlinks example.com --mode one_per_domain --all --json | jq '.[0].items | length'",
    )
    .action((target: string, opts: BacklinksOptions) => run(target, opts, deps));
}
