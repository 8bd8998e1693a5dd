import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../../src/server/context.js';
import type { AuthContext } from '../../../src/server/auth/authenticate.js';
import { openStore, type Store } from '../../../src/server/store/store.js';
import { incomeStatements, insiderTrades } from '../../../src/server/services/beta-financial.service.js';
import { importText } from '../../helpers/import-text.js';

let store: Store;
let ctx: AppContext;
beforeAll(async () => {
  store = await openStore({ dataDir: null });
  ctx = { db: store.db, config: {} } as unknown as AppContext;
});
afterAll(() => store?.close());

const as = (plan: 'free' | 'paid') => ({ user: { plan } }) as unknown as AuthContext;

describe('income statements: plan and parameters', () => {
  it('ttm needs a paid plan (402); annual and quarterly do not', async () => {
    await expect(incomeStatements(ctx, as('free'), { ticker: 'AAPL', period: 'ttm' })).rejects.toMatchObject({
      status: 402,
      code: 'PAYMENT_REQUIRED',
    });
    expect(
      (await incomeStatements(ctx, as('paid'), { ticker: 'AAPL', period: 'ttm' })).income_statements[0].period,
    ).toBe('ttm');
    expect(
      (await incomeStatements(ctx, as('free'), { ticker: 'AAPL', period: 'annual' })).income_statements,
    ).toHaveLength(4);
  });

  it('ticker or cik is required', async () => {
    await expect(incomeStatements(ctx, as('paid'), { period: 'annual' })).rejects.toMatchObject({
      status: 400,
      code: 'MISSING_PARAMETER',
    });
  });
});

describe('imported financials', () => {
  const statement = (period: string, report: string, revenue: number) => ({
    ticker: 'acme',
    report_period: report,
    fiscal_period: report.slice(0, 4),
    period,
    currency: 'USD',
    revenue,
    cost_of_revenue: 1,
    gross_profit: revenue - 1,
    operating_expense: 0,
    selling_general_and_administrative_expenses: 0,
    research_and_development: 0,
    operating_income: revenue - 1,
    interest_expense: 0,
    ebit: revenue - 1,
    income_tax_expense: 0,
    net_income_discontinued_operations: 0,
    net_income_non_controlling_interests: 0,
    net_income: revenue - 1,
    net_income_common_stock: revenue - 1,
    preferred_dividends_impact: 0,
    consolidated_income: revenue - 1,
    earnings_per_share: 1,
    earnings_per_share_diluted: 1,
    dividends_per_common_share: 0,
    weighted_average_shares: 10,
    weighted_average_shares_diluted: 10,
  });

  it('an imported ticker becomes known; its rows are served, filtered and newest first', async () => {
    await expect(incomeStatements(ctx, as('paid'), { ticker: 'ACME', period: 'annual' })).rejects.toMatchObject({
      status: 404,
    });
    const lines = [
      statement('annual', '2023-12-31', 100),
      statement('annual', '2024-12-31', 200),
      statement('quarterly', '2024-12-31', 50),
    ]
      .map((s) => JSON.stringify(s))
      .join('\n');
    await importText(ctx.db, 'income', 'acme.jsonl', lines);
    const { income_statements } = await incomeStatements(ctx, as('paid'), { ticker: 'acme', period: 'annual' });
    expect(income_statements.map((s) => [s.ticker, s.revenue])).toEqual([
      ['ACME', 200],
      ['ACME', 100],
    ]);
    const bounded = await incomeStatements(ctx, as('paid'), {
      ticker: 'ACME',
      period: 'annual',
      report_period_lt: '2024-01-01',
    });
    expect(bounded.income_statements.map((s) => s.revenue)).toEqual([100]);
  });

  it('insider trades import from CSV', async () => {
    const csv =
      'ticker,issuer,name,title,is_board_director,transaction_date,transaction_shares,transaction_price_per_share,transaction_value,shares_owned_before_transaction,shares_owned_after_transaction,security_title,filing_date\n' +
      'ACME,Acme Corp,"Doe, Jane",CEO,false,2026-01-02,-10,5,50,100,90,Common Stock,2026-01-03\n';
    await importText(ctx.db, 'insiders', 't.csv', csv);
    const { insider_trades } = await insiderTrades(ctx, as('free'), { ticker: 'ACME' });
    expect(insider_trades).toEqual([
      expect.objectContaining({ name: 'Doe, Jane', transaction_shares: -10, is_board_director: false }),
    ]);
  });

  it('a bad record fails the import with its line and number', async () => {
    await expect(
      importText(ctx.db, 'income', 'x.jsonl', '\n' + JSON.stringify({ ticker: 'X', period: 'weekly' })),
    ).rejects.toThrow(/line 2, record 1: /);
    await expect(importText(ctx.db, 'income', 'x.txt', '')).rejects.toThrow(/\.csv, \.jsonl or \.ndjson/);
  });
});
