import { describe, expect, it } from 'vitest';
import { localFinancialProvider } from '../../../src/server/providers/beta/local/financial-local.js';
import {
  incomeStatements,
  insiderTrades,
  publishedQuarters,
} from '../../../src/server/providers/beta/local/financials.js';
import { findCompany } from '../../../src/server/providers/beta/local/companies.js';
import { landingPages } from '../../../src/server/providers/beta/local/traffic.js';

const apple = findCompany({ ticker: 'aapl' })!;
const FLOWS = [
  'revenue',
  'cost_of_revenue',
  'gross_profit',
  'operating_expense',
  'selling_general_and_administrative_expenses',
  'research_and_development',
  'operating_income',
  'interest_expense',
  'ebit',
  'income_tax_expense',
  'net_income_discontinued_operations',
  'net_income_non_controlling_interests',
  'net_income',
  'net_income_common_stock',
  'preferred_dividends_impact',
  'consolidated_income',
] as const;

describe('income statements', () => {
  it("a year's four quarters add up to its annual statement, and the last four to the ttm one", () => {
    const annual = incomeStatements(apple, 'annual');
    const quarterly = incomeStatements(apple, 'quarterly');
    const ttm = incomeStatements(apple, 'ttm');
    expect(annual.length).toBeGreaterThan(5);
    for (const year of annual) {
      const y = year.fiscal_period.slice(0, 4);
      const qs = quarterly.filter((q) => q.fiscal_period.startsWith(`${y}-Q`));
      expect(qs).toHaveLength(4);
      for (const f of FLOWS) expect(year[f]).toBe(qs.reduce((s, q) => s + q[f], 0));
      expect(year.report_period).toBe(`${y}-12-31`);
    }
    const last4 = quarterly.slice(0, 4);
    for (const f of FLOWS) expect(ttm[0][f]).toBe(last4.reduce((s, q) => s + q[f], 0));
    expect(ttm[0].report_period).toBe(quarterly[0].report_period);
  });

  it('is consistent inside a statement and plausible', () => {
    for (const s of incomeStatements(apple, 'quarterly')) {
      expect(s.gross_profit).toBe(s.revenue - s.cost_of_revenue);
      expect(s.operating_income).toBe(s.gross_profit - s.operating_expense);
      expect(s.net_income).toBe(s.consolidated_income - s.net_income_non_controlling_interests);
      expect(s.revenue).toBeGreaterThan(20e9);
      expect(s.revenue).toBeLessThan(250e9);
      expect(Math.abs(s.earnings_per_share - s.net_income_common_stock / s.weighted_average_shares)).toBeLessThan(0.01);
    }
    expect(publishedQuarters().at(-1)!.end <= '2026-09-16').toBe(true);
  });

  it('is deterministic', () => {
    expect(incomeStatements(apple, 'quarterly')).toEqual(
      incomeStatements(findCompany({ cik: '0000320193' })!, 'quarterly'),
    );
  });

  it('the provider applies limit and report_period bounds, and refuses an unknown ticker', async () => {
    const p = localFinancialProvider();
    const { income_statements } = await p.incomeStatements({
      ticker: 'AAPL',
      period: 'quarterly',
      limit: 100,
      report_period_gte: '2024-01-01',
      report_period_lt: '2025-01-01',
    });
    expect(income_statements.map((s) => s.fiscal_period)).toEqual(['2024-Q4', '2024-Q3', '2024-Q2', '2024-Q1']);
    expect((await p.incomeStatements({ ticker: 'AAPL', period: 'annual' })).income_statements).toHaveLength(4);
    expect(
      (
        await p.incomeStatements({ ticker: 'AAPL', period: 'annual', report_period: '2023-12-31' })
      ).income_statements.map((s) => s.fiscal_period),
    ).toEqual(['2023-FY']);
    await expect(p.incomeStatements({ ticker: 'NOPE', period: 'annual' })).rejects.toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
  });
});

describe('insider trades', () => {
  it('holdings chain: each trade starts where that insider last ended', () => {
    const trades = [...insiderTrades(apple)].sort((a, b) =>
      a.transaction_date < b.transaction_date ? -1 : a.transaction_date > b.transaction_date ? 1 : 0,
    );
    const owned = new Map<string, number>();
    for (const t of trades) {
      expect(t.shares_owned_after_transaction).toBe(t.shares_owned_before_transaction + t.transaction_shares);
      if (owned.has(t.name)) expect(t.shares_owned_before_transaction).toBe(owned.get(t.name));
      owned.set(t.name, t.shares_owned_after_transaction);
      expect(t.filing_date >= t.transaction_date).toBe(true);
    }
  });

  it('the provider filters by name, type and filing date; default limit 10', async () => {
    const p = localFinancialProvider();
    expect((await p.insiderTrades({ ticker: 'AAPL' })).insider_trades).toHaveLength(10);
    const all = (await p.insiderTrades({ ticker: 'AAPL', limit: 1000 })).insider_trades;
    const who = all[0].name;
    const mine = (await p.insiderTrades({ ticker: 'AAPL', limit: 1000, name: who.toUpperCase() })).insider_trades;
    expect(mine.length).toBe(all.filter((t) => t.name === who).length);
    const sells = (await p.insiderTrades({ ticker: 'AAPL', limit: 1000, transaction_type: 'sell' })).insider_trades;
    expect(sells.length).toBeGreaterThan(0);
    expect(sells.every((t) => t.transaction_shares < 0)).toBe(true);
    const recent = (await p.insiderTrades({ ticker: 'AAPL', limit: 1000, filing_date_gte: '2026-01-01' }))
      .insider_trades;
    expect(recent.length).toBe(all.filter((t) => t.filing_date >= '2026-01-01').length);
    await expect(p.insiderTrades({ ticker: 'ZZZZ' })).rejects.toMatchObject({ status: 404 });
  });
});

describe('landing-page traffic', () => {
  const q = { domain: 'example.com', start_date: '2026-01', end_date: '2026-03', limit: 20 } as const;
  it("a range's clicks are the sum of its months, and shares are consistent", () => {
    // Every row of a query, walking offsets (at most 20 rows per request).
    const every = (query: Parameters<typeof landingPages>[0]) => {
      const rows = [];
      for (let offset = 0; ; offset += 20) {
        const page = landingPages({ ...query, offset });
        rows.push(...page.data);
        if (offset + 20 >= page.meta.total_count) return rows;
      }
    };
    const whole = { data: every(q) };
    const byMonth = ['2026-01', '2026-02', '2026-03'].map((m) => every({ ...q, start_date: m, end_date: m }));
    expect(byMonth[0].length).toBe(whole.data.length);
    for (const page of whole.data) {
      const sum = byMonth.reduce((s, rows) => s + rows.find((d) => d.url === page.url)!.clicks, 0);
      expect(page.clicks).toBe(sum);
      expect(page.desktop_share + page.mobile_share).toBeCloseTo(1, 3);
    }
    expect(whole.data.map((d) => d.clicks)).toEqual([...whole.data.map((d) => d.clicks)].sort((a, b) => b - a));
  });

  it('a limit over 20 returns 20 rows and says so in meta.query.limit; offset pages on', () => {
    const big = landingPages({ ...q, limit: 50 });
    expect(big.meta.query.limit).toBe(20);
    expect(big.meta.request.limit).toBe(50);
    expect(big.data.length).toBeLessThanOrEqual(20);
    const first = landingPages({ ...q, limit: 5 });
    const second = landingPages({ ...q, limit: 5, offset: 5 });
    expect(second.data[0]).toEqual(landingPages({ ...q, limit: 10 }).data[5]);
    expect(first.data).toHaveLength(5);
  });

  it('country us is a part of worldwide; main_domain_only leaves out subdomains', () => {
    const ww = landingPages(q).data[0];
    const us = landingPages({ ...q, country: 'us' }).data.find((d) => d.url === ww.url)!;
    expect(us.clicks).toBeLessThan(ww.clicks);
    expect(
      landingPages({ ...q, main_domain_only: 'true' }).data.every((d) => new URL(d.url).hostname === 'example.com'),
    ).toBe(true);
  });
});
