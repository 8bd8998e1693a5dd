import { Option, type Command } from 'commander';
import type { Deps } from '../../deps.js';
import { intOption } from '../../io/parse.js';
import { usageError } from '../../exit-codes.js';

export interface TrafficOptions {
  from: string;
  to: string;
  country?: 'us' | 'ww';
  source?: 'desktop' | 'mobile_web' | 'total';
  trafficSource?: 'organic' | 'paid' | 'all';
  limit: number;
  offset?: number;
  all?: boolean;
  mainDomainOnly?: boolean;
}

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

export async function run(domain: string, opts: TrafficOptions, deps: Deps): Promise<void> {
  for (const [flag, v] of [
    ['--from', opts.from],
    ['--to', opts.to],
  ] as const)
    if (!MONTH.test(v)) throw usageError(`${flag} takes a month YYYY-MM; got ${v}`);
  const api = await deps.api('beta');
  const io = deps.io();
  const query = {
    domain,
    start_date: opts.from,
    end_date: opts.to,
    granularity: 'monthly' as const,
    limit: opts.limit,
    country: opts.country,
    web_source: opts.source,
    traffic_source: opts.trafficSource,
    main_domain_only: opts.mainDomainOnly ? ('true' as const) : undefined,
  };
  let offset = opts.offset;
  const res = await api.beta.landingPages({ ...query, offset });
  // --all asks for the next rows until a page comes back short: the result names no total.
  for (let page = res.data; opts.all && page.length > 0 && page.length >= res.meta.query.limit;) {
    offset = (offset ?? 0) + page.length;
    page = (await api.beta.landingPages({ ...query, offset })).data;
    res.data.push(...page);
  }
  io.print(res, () => {
    io.table(
      res.data,
      [
        { header: 'URL', value: (p) => p.url },
        { header: 'CLICKS', value: (p) => p.clicks },
        { header: 'SHARE', value: (p) => `${(p.traffic_share * 100).toFixed(1)}%` },
        { header: 'MOBILE', value: (p) => `${(p.mobile_share * 100).toFixed(0)}%` },
        { header: 'TOP KEYWORD', value: (p) => p.top_keyword },
      ],
      { empty: 'No landing pages.' },
    );
    if (opts.limit > res.meta.query.limit)
      io.info(`at most ${res.meta.query.limit} rows per request (billed as ${res.meta.query.limit})`);
  });
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('traffic')
    .argument('<domain>', 'the domain')
    .description('Landing pages of a domain by search clicks over a range of months')
    .requiredOption('--from <YYYY-MM>', 'first month')
    .requiredOption('--to <YYYY-MM>', 'last month')
    .addOption(new Option('--country <country>', 'us or ww (worldwide, default)').choices(['us', 'ww']))
    .addOption(
      new Option('--source <source>', 'desktop, mobile_web or total (default)').choices([
        'desktop',
        'mobile_web',
        'total',
      ]),
    )
    .addOption(
      new Option('--traffic-source <source>', 'organic, paid or all (default)').choices(['organic', 'paid', 'all']),
    )
    .option('--limit <n>', 'rows (at most 20 are returned; more is billed as 20)', intOption(1, 10_000), 20)
    .option('--offset <n>', 'skip this many rows', intOption(0, 10_000))
    .option('--all', 'ask for the following pages (each request is billed) until every landing page is read')
    .option('--main-domain-only', 'leave out subdomains')
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet beta traffic example.com --from 2026-01 --to 2026-06 --country us\n  $ facet beta traffic example.com --from 2026-01 --to 2026-01 --json | jq ".data[0]"',
    )
    .action((domain: string, opts: TrafficOptions) => run(domain, opts, deps));
}
