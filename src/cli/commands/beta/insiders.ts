import { Option, type Command } from 'commander';
import { INSIDER_LIMITS, type InsiderTrade } from '../../../contract/beta-financial.js';
import type { Deps } from '../../deps.js';
import { intOption } from '../../io/parse.js';

export interface InsidersOptions {
  limit?: number;
  name?: string;
  type?: 'buy' | 'sell' | 'grant';
  from?: string;
  to?: string;
}

export async function run(ticker: string, opts: InsidersOptions, deps: Deps): Promise<void> {
  const api = await deps.api('beta');
  const io = deps.io();
  const { insider_trades } = await api.beta.insiderTrades({
    ticker,
    limit: opts.limit,
    name: opts.name,
    transaction_type: opts.type,
    filing_date_gte: opts.from,
    filing_date_lte: opts.to,
  });
  io.print(insider_trades, () =>
    io.table<InsiderTrade>(
      insider_trades,
      [
        { header: 'FILED', value: (t) => t.filing_date },
        { header: 'NAME', value: (t) => t.name },
        { header: 'TITLE', value: (t) => t.title ?? '' },
        { header: 'SHARES', value: (t) => t.transaction_shares },
        { header: 'PRICE', value: (t) => t.transaction_price_per_share },
        { header: 'VALUE', value: (t) => t.transaction_value },
        { header: 'OWNED AFTER', value: (t) => t.shares_owned_after_transaction },
      ],
      { empty: 'No insider trades match.' },
    ),
  );
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('insiders')
    .argument('<ticker>', 'the company ticker')
    .description('Insider trades of a company, newest filing first')
    .option(
      '--limit <n>',
      `trades (1-${INSIDER_LIMITS.maxLimit}, default ${INSIDER_LIMITS.defaultLimit})`,
      intOption(1, INSIDER_LIMITS.maxLimit),
    )
    .option('--name <name>', 'only this insider')
    .addOption(new Option('--type <type>', 'only buys, sells or grants').choices(['buy', 'sell', 'grant']))
    .option('--from <date>', 'only filings on or after YYYY-MM-DD')
    .option('--to <date>', 'only filings on or before YYYY-MM-DD')
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet beta insiders AAPL --limit 5\n  $ facet beta insiders MSFT --type sell --from 2026-01-01 --json',
    )
    .action((ticker: string, opts: InsidersOptions) => run(ticker, opts, deps));
}
