import { Option, type Command } from 'commander';
import { INCOME_LIMITS, type IncomeStatement } from '../../../contract/beta-financial.js';
import type { Deps } from '../../deps.js';
import { intOption } from '../../io/parse.js';

export interface IncomeOptions {
  period: 'annual' | 'quarterly' | 'ttm';
  limit?: number;
  cik?: boolean;
  from?: string;
  to?: string;
}

const money = (n: number) => (Math.abs(n) >= 1e9 ? `${(n / 1e9).toFixed(2)}B` : `${(n / 1e6).toFixed(1)}M`);

export async function run(company: string, opts: IncomeOptions, deps: Deps): Promise<void> {
  const api = await deps.api('beta');
  const io = deps.io();
  const { income_statements } = await api.beta.incomeStatements({
    period: opts.period,
    ...(opts.cik ? { cik: company } : { ticker: company }),
    limit: opts.limit,
    report_period_gte: opts.from,
    report_period_lte: opts.to,
  });
  io.print(income_statements, () =>
    io.table<IncomeStatement>(
      income_statements,
      [
        { header: 'PERIOD', value: (s) => s.fiscal_period },
        { header: 'ENDS', value: (s) => s.report_period },
        { header: 'REVENUE', value: (s) => money(s.revenue) },
        { header: 'GROSS PROFIT', value: (s) => money(s.gross_profit) },
        { header: 'OPERATING INCOME', value: (s) => money(s.operating_income) },
        { header: 'NET INCOME', value: (s) => money(s.net_income) },
        { header: 'EPS', value: (s) => s.earnings_per_share },
      ],
      { empty: 'No statements match.' },
    ),
  );
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('income')
    .argument('<ticker>', 'the company ticker (or its CIK with --cik)')
    .description('Income statements of a company, newest first')
    .addOption(
      new Option('--period <period>', 'annual, quarterly or ttm (ttm needs a paid plan)')
        .choices(['annual', 'quarterly', 'ttm'])
        .makeOptionMandatory(),
    )
    .option(
      '--limit <n>',
      `statements (1-${INCOME_LIMITS.maxLimit}, default ${INCOME_LIMITS.defaultLimit})`,
      intOption(1, INCOME_LIMITS.maxLimit),
    )
    .option('--cik', 'the argument is a CIK, not a ticker')
    .option('--from <date>', 'only periods ending on or after YYYY-MM-DD')
    .option('--to <date>', 'only periods ending on or before YYYY-MM-DD')
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet beta income AAPL --period annual --limit 3\n  $ facet beta income 320193 --cik --period quarterly --json',
    )
    .action((ticker: string, opts: IncomeOptions) => run(ticker, opts, deps));
}
