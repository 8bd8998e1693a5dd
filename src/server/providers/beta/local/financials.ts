import type { IncomeStatement, InsiderTrade } from '../../../../contract/beta-financial.js';
import { DATA_DATE, int, pick, rng, rowRng, seedOf } from '../seeded.js';
import type { Company } from './companies.js';
import { quoteOf, type DailyQuote } from './quotes.js';

/**
 * Local financial statements: each quarter of a company derives from a hash of ticker and quarter,
 * whole dollars; an annual statement is the sum of its four quarters and a ttm one the sum of the
 * four quarters up to it, so flows add up exactly. Per-share figures are computed from the summed
 * flows and the average share counts, as filings do (they do not add up across quarters).
 */

const FIRST_YEAR = 2015;
/** Statements appear 45 days after their period ends. */
const REPORTING_LAG_DAYS = 45;

interface Quarter {
  year: number;
  q: number;
  end: string;
}

function quarterEnd(year: number, q: number): string {
  return ['03-31', '06-30', '09-30', '12-31'].map((d) => `${year}-${d}`)[q - 1];
}

/** Every quarter with a published statement, oldest first. */
export function publishedQuarters(): Quarter[] {
  const out: Quarter[] = [];
  const cutoff = new Date(DATA_DATE - REPORTING_LAG_DAYS * 86_400_000).toISOString().slice(0, 10);
  for (let year = FIRST_YEAR; ; year++) {
    for (let q = 1; q <= 4; q++) {
      const end = quarterEnd(year, q);
      if (end > cutoff) return out;
      out.push({ year, q, end });
    }
  }
}

const round = (n: number) => Math.round(n);

/** Flows of a period: what an annual or ttm statement sums over its quarters. */
const SUMMED = [
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
  'dividends',
] as const;
type Flows = Record<(typeof SUMMED)[number] | 'weighted_average_shares' | 'weighted_average_shares_diluted', number>;

/**
 * A company's cost structure: a base share of revenue per line (from the ticker alone) that drifts
 * slowly from quarter to quarter, so margins move by a point or two between quarters, not by tens.
 */
function shareOf(c: Company, line: string, quarter: Quarter, base: [number, number], drift: number): number {
  const r = rng(seedOf('structure', c.ticker, line));
  const level = base[0] + (base[1] - base[0]) * r();
  const phase = 2 * Math.PI * r();
  const t = quarter.year * 4 + quarter.q;
  const noise = rng(seedOf('structure', c.ticker, line, quarter.year, quarter.q))() - 0.5;
  return level + drift * Math.sin(phase + t / 4) + (drift / 3) * noise;
}

function quarterFlows(c: Company, quarter: Quarter): Flows {
  const r = rng(seedOf('income', c.ticker, quarter.year, quarter.q));
  const growth = (1.06 + 0.06 * rng(seedOf('growth', c.ticker))()) ** (quarter.year - 2024 + (quarter.q - 2.5) / 4);
  const revenue = round(((c.revenue / 4) * growth * (0.95 + 0.1 * r())) / 1000) * 1000;
  // Gross and operating margins are the company's own, so operating income stays positive and
  // P/E plausible; operating expenses split between R&D and SG&A in the company's proportion.
  const grossMargin = shareOf(c, 'gross', quarter, [0.3, 0.62], 0.015);
  const operatingMargin = Math.min(shareOf(c, 'operating', quarter, [0.08, 0.3], 0.008), grossMargin - 0.08);
  const cost_of_revenue = round(revenue * (1 - grossMargin));
  const opex = round(revenue * (grossMargin - operatingMargin));
  const research_and_development = round(opex * shareOf(c, 'rnd', quarter, [0.05, 0.5], 0.01));
  const selling_general_and_administrative_expenses = opex - research_and_development;
  const interest_expense = round(revenue * shareOf(c, 'interest', quarter, [0.002, 0.015], 0.001));
  const gross_profit = revenue - cost_of_revenue;
  const operating_expense = research_and_development + selling_general_and_administrative_expenses;
  const operating_income = gross_profit - operating_expense;
  const ebit = operating_income;
  const income_tax_expense = Math.max(
    0,
    round((ebit - interest_expense) * shareOf(c, 'tax', quarter, [0.13, 0.21], 0.005)),
  );
  const net_income_discontinued_operations = r() < 0.1 ? round(revenue * 0.004 * (r() - 0.5)) : 0;
  const consolidated_income = ebit - interest_expense - income_tax_expense + net_income_discontinued_operations;
  const net_income_non_controlling_interests = round(Math.abs(consolidated_income) * 0.01 * r());
  const net_income = consolidated_income - net_income_non_controlling_interests;
  const preferred_dividends_impact = 0;
  const net_income_common_stock = net_income - preferred_dividends_impact;
  const weighted_average_shares = round(
    c.shares * (1.02 - 0.005 * (quarter.year - FIRST_YEAR)) * (0.998 + 0.004 * r()),
  );
  const weighted_average_shares_diluted = round(weighted_average_shares * (1.003 + 0.01 * r()));
  const dividends = round(net_income > 0 ? net_income * shareOf(c, 'payout', quarter, [0, 0.35], 0.01) : 0);
  return {
    revenue,
    cost_of_revenue,
    gross_profit,
    operating_expense,
    selling_general_and_administrative_expenses,
    research_and_development,
    operating_income,
    interest_expense,
    ebit,
    income_tax_expense,
    net_income_discontinued_operations,
    net_income_non_controlling_interests,
    net_income,
    net_income_common_stock,
    preferred_dividends_impact,
    consolidated_income,
    weighted_average_shares,
    weighted_average_shares_diluted,
    dividends,
  };
}

function statement(
  c: Company,
  period: IncomeStatement['period'],
  quarters: Quarter[],
  fiscal: string,
): IncomeStatement {
  const flows = quarters.map((q) => quarterFlows(c, q));
  const sum = Object.fromEntries(SUMMED.map((k) => [k, flows.reduce((s, f) => s + f[k], 0)])) as Record<
    (typeof SUMMED)[number],
    number
  >;
  const shares = round(flows.reduce((s, f) => s + f.weighted_average_shares, 0) / flows.length);
  const diluted = round(flows.reduce((s, f) => s + f.weighted_average_shares_diluted, 0) / flows.length);
  const { dividends, ...rest } = sum;
  return {
    ticker: c.ticker,
    report_period: quarters[quarters.length - 1].end,
    fiscal_period: fiscal,
    period,
    currency: 'USD',
    ...rest,
    earnings_per_share: Math.round((sum.net_income_common_stock / shares) * 100) / 100,
    earnings_per_share_diluted: Math.round((sum.net_income_common_stock / diluted) * 100) / 100,
    dividends_per_common_share: Math.round((dividends / shares) * 100) / 100,
    weighted_average_shares: shares,
    weighted_average_shares_diluted: diluted,
  };
}

/** Every published statement of the period kind, newest first. */
export function incomeStatements(c: Company, period: IncomeStatement['period']): IncomeStatement[] {
  const quarters = publishedQuarters();
  const out: IncomeStatement[] = [];
  if (period === 'quarterly') for (const q of quarters) out.push(statement(c, 'quarterly', [q], `${q.year}-Q${q.q}`));
  if (period === 'ttm')
    for (let i = 3; i < quarters.length; i++)
      out.push(statement(c, 'ttm', quarters.slice(i - 3, i + 1), `${quarters[i].year}-Q${quarters[i].q}`));
  if (period === 'annual') {
    for (let i = 0; i + 3 < quarters.length; i += 4) {
      if (quarters[i].q === 1 && quarters[i + 3].q === 4)
        out.push(statement(c, 'annual', quarters.slice(i, i + 4), `${quarters[i].year}-FY`));
    }
  }
  return out.reverse();
}

/** The trailing twelve months' diluted EPS as known on a day: the last four quarters published by then. */
function ttmEpsOn(c: Company, dayMs: number): number {
  const known = new Date(dayMs - REPORTING_LAG_DAYS * 86_400_000).toISOString().slice(0, 10);
  const quarters = publishedQuarters()
    .filter((q) => q.end <= known)
    .slice(-4);
  return statement(c, 'ttm', quarters, '').earnings_per_share_diluted;
}

/** The company's quote on a day (quotes.ts), from the earnings published by then. */
export function dailyQuote(c: Company, dayMs: number): DailyQuote {
  return quoteOf(c, dayMs, ttmEpsOn(c, dayMs));
}

const FIRST_NAMES = [
  'Alex',
  'Jordan',
  'Morgan',
  'Taylor',
  'Catherine',
  'Robert',
  'Jamie',
  'Susan',
  'Michael',
  'Dana',
  'Elizabeth',
  'David',
  'Priya',
  'Kevin',
];
const SURNAMES = [
  'Anderson',
  'Bennett',
  'Chen',
  'Donovan',
  'Ellis',
  'Fischer',
  'Gupta',
  'Hale',
  'Iverson',
  'Jensen',
  'Kaplan',
  'Lopez',
  'Mitchell',
  'Novak',
  'Okafor',
  'Price',
  'Ramirez',
  'Sullivan',
  'Tran',
  'Walsh',
];
const TITLES = [
  'Chief Executive Officer',
  'Chief Financial Officer',
  'Chief Operating Officer',
  'General Counsel',
  'SVP, Engineering',
  'Director',
  'Director',
  'Chief Technology Officer',
];

/** A company's insider trades over the last three years, newest filing first. */
export function insiderTrades(c: Company): InsiderTrade[] {
  const seed = seedOf('insiders', c.ticker);
  const r0 = rng(seed);
  const people = Array.from({ length: int(r0, 4, 9) }, (_, i) => {
    const r = rowRng(seed, 10_000 + i);
    const title = pick(r, TITLES);
    return {
      name: `${pick(r, FIRST_NAMES)} ${pick(r, SURNAMES)}`,
      title,
      director: title === 'Director' || r() < 0.2,
      owned: int(r, 20_000, 4_000_000),
    };
  });
  const count = int(r0, 40, 160);
  const start = DATA_DATE - 3 * 365 * 86_400_000;
  const days = Array.from({ length: count }, (_, i) =>
    Math.floor(start + rowRng(seed, i)() * (DATA_DATE - 5 * 86_400_000 - start)),
  );
  days.sort((a, b) => a - b);
  const trades: InsiderTrade[] = [];
  days.forEach((day, i) => {
    const r = rowRng(seed, 50_000 + i);
    const person = people[Math.floor(r() * people.length)];
    const kind = r();
    const size = int(r, 100, Math.max(200, Math.floor(person.owned * 0.05)));
    const grant = kind < 0.2;
    const sell = !grant && kind < 0.8 && person.owned > size;
    const shares = sell ? -size : size;
    // Bought or sold inside the day's range; grants carry no price.
    const quote = grant ? null : dailyQuote(c, day);
    const price = quote ? Math.round((quote.low + (quote.high - quote.low) * r()) * 100) / 100 : 0;
    const before = person.owned;
    person.owned = before + shares;
    const date = new Date(day).toISOString().slice(0, 10);
    trades.push({
      ticker: c.ticker,
      issuer: c.name,
      name: person.name,
      title: person.title,
      is_board_director: person.director,
      transaction_date: date,
      transaction_shares: shares,
      transaction_price_per_share: price,
      transaction_value: Math.round(Math.abs(shares) * price * 100) / 100,
      shares_owned_before_transaction: before,
      shares_owned_after_transaction: person.owned,
      security_title: 'Common Stock',
      filing_date: new Date(day + int(r, 0, 4) * 86_400_000).toISOString().slice(0, 10),
    });
  });
  return trades.sort((a, b) => (a.filing_date < b.filing_date ? 1 : a.filing_date > b.filing_date ? -1 : 0));
}

/** buy, sell or grant, from the trade's sign and price (the item carries no type field). */
export function transactionType(t: InsiderTrade): 'buy' | 'sell' | 'grant' {
  if (t.transaction_shares < 0) return 'sell';
  return t.transaction_price_per_share === 0 ? 'grant' : 'buy';
}
