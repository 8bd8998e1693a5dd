import { describe, expect, it } from 'vitest';
import { COMPANIES } from '../../../src/server/providers/beta/local/companies.js';
import {
  dailyQuote,
  incomeStatements,
  insiderTrades,
  transactionType,
} from '../../../src/server/providers/beta/local/financials.js';

/**
 * The local financials agree with themselves: statements add up, margins move by a point or two
 * between quarters, and insider trades are priced inside the day's range of a quote history whose
 * price is the trailing EPS times a plausible P/E.
 */
const margins = (s: { revenue: number; gross_profit: number; operating_income: number; net_income: number }) => [
  s.gross_profit / s.revenue,
  s.operating_income / s.revenue,
  s.net_income / s.revenue,
];

describe.each(COMPANIES.map((c) => [c.ticker, c] as const))('%s', (_ticker, company) => {
  it('statements add up, and margins move by at most three points from one quarter to the next', () => {
    const quarters = incomeStatements(company, 'quarterly');
    for (const s of quarters) {
      expect(s.gross_profit).toBe(s.revenue - s.cost_of_revenue);
      expect(s.operating_expense).toBe(s.research_and_development + s.selling_general_and_administrative_expenses);
      expect(s.operating_income).toBe(s.gross_profit - s.operating_expense);
      expect(s.consolidated_income).toBe(
        s.ebit - s.interest_expense - s.income_tax_expense + s.net_income_discontinued_operations,
      );
      expect(s.net_income).toBe(s.consolidated_income - s.net_income_non_controlling_interests);
      expect(s.net_income_common_stock).toBe(s.net_income - s.preferred_dividends_impact);
      expect(s.net_income).toBeGreaterThan(0);
    }
    for (let i = 1; i < quarters.length; i++) {
      const [a, b] = [margins(quarters[i - 1]), margins(quarters[i])];
      for (let k = 0; k < 3; k++)
        expect(Math.abs(a[k] - b[k]), `${quarters[i].fiscal_period} margin ${k}`).toBeLessThanOrEqual(0.03);
    }
  });

  it("insider trades are priced inside the day's range, at a P/E between 5 and 60", () => {
    const trades = insiderTrades(company);
    expect(trades.length).toBeGreaterThan(0);
    for (const t of trades) {
      if (transactionType(t) === 'grant') {
        expect(t.transaction_price_per_share).toBe(0);
        continue;
      }
      const quote = dailyQuote(company, Date.parse(`${t.transaction_date}T00:00:00Z`));
      expect(quote.date).toBe(t.transaction_date);
      expect(t.transaction_price_per_share).toBeGreaterThanOrEqual(quote.low);
      expect(t.transaction_price_per_share).toBeLessThanOrEqual(quote.high);
      expect(quote.low).toBeLessThanOrEqual(Math.min(quote.open, quote.close));
      expect(quote.high).toBeGreaterThanOrEqual(Math.max(quote.open, quote.close));
      const pe = t.transaction_price_per_share / quote.ttm_eps;
      expect(pe).toBeGreaterThanOrEqual(5);
      expect(pe).toBeLessThanOrEqual(60);
      expect(t.transaction_value).toBeCloseTo(Math.abs(t.transaction_shares) * t.transaction_price_per_share, 2);
    }
  });
});

it('the quote history moves day to day by a few percent at most, except on earnings days', () => {
  const apple = COMPANIES[0];
  const start = Date.UTC(2025, 0, 2);
  const annual = incomeStatements(apple, 'annual')[0];
  expect(annual.earnings_per_share_diluted).toBeGreaterThan(0);
  let prev = dailyQuote(apple, start);
  for (let d = 1; d < 200; d++) {
    const q = dailyQuote(apple, start + d * 86_400_000);
    if (q.ttm_eps === prev.ttm_eps) expect(Math.abs(q.close / prev.close - 1)).toBeLessThan(0.03);
    prev = q;
  }
});
