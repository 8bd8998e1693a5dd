import {
  INCOME_LIMITS,
  INSIDER_LIMITS,
  type IncomeQuery,
  type IncomeStatement,
  type InsiderQuery,
  type InsiderTrade,
} from '../../../../contract/beta-financial.js';
import { HttpError } from '../../../errors.js';
import type { FinancialProvider } from '../financial-provider.js';
import { findCompany } from './companies.js';
import { incomeStatements, insiderTrades, transactionType } from './financials.js';

/** The date bounds of a query (`x`, `x_gte`, `x_lte`, `x_gt`, `x_lt`) as one test. */
export function dateBounds(query: Record<string, unknown>, field: string): (date: string) => boolean {
  const at = (k: string) => query[k] as string | undefined;
  const [eq, gte, lte, gt, lt] = ['', '_gte', '_lte', '_gt', '_lt'].map((s) => at(field + s));
  return (d) =>
    (eq === undefined || d === eq) &&
    (gte === undefined || d >= gte) &&
    (lte === undefined || d <= lte) &&
    (gt === undefined || d > gt) &&
    (lt === undefined || d < lt);
}

const unknownCompany = (what: string) => new HttpError('NOT_FOUND', `no company with ${what}`);

/** Rows imported for a ticker (`facet serve data import income|insiders`), null when none. */
export interface ImportedFinancials {
  income(ticker: string): Promise<IncomeStatement[] | null>;
  insiders(ticker: string): Promise<InsiderTrade[] | null>;
}

const NONE: ImportedFinancials = { income: async () => null, insiders: async () => null };
const newestFirst =
  (key: 'report_period' | 'filing_date') => (a: Record<string, unknown>, b: Record<string, unknown>) =>
    a[key]! < b[key]! ? 1 : a[key]! > b[key]! ? -1 : 0;

/** The local provider: built-in companies, and imported tickers whose rows replace the generated ones. */
export function localFinancialProvider(imported: ImportedFinancials = NONE): FinancialProvider {
  return {
    kind: 'local',
    async incomeStatements(q: IncomeQuery) {
      const company = findCompany({ ticker: q.ticker, cik: q.cik });
      const own = q.ticker ? await imported.income(q.ticker.toUpperCase()) : null;
      if (!company && !own) throw unknownCompany(q.ticker ? `ticker ${q.ticker}` : `CIK ${q.cik}`);
      const inRange = dateBounds(q, 'report_period');
      const source = own
        ? own.filter((s) => s.period === q.period).sort(newestFirst('report_period'))
        : incomeStatements(company!, q.period);
      const list = source.filter((s) => inRange(s.report_period));
      return { income_statements: list.slice(0, q.limit ?? INCOME_LIMITS.defaultLimit) };
    },
    async insiderTrades(q: InsiderQuery) {
      const company = findCompany({ ticker: q.ticker });
      const own = await imported.insiders(q.ticker.toUpperCase());
      if (!company && !own) throw unknownCompany(`ticker ${q.ticker}`);
      const inRange = dateBounds(q, 'filing_date');
      const name = q.name?.toLowerCase();
      const source = own ? [...own].sort(newestFirst('filing_date')) : insiderTrades(company!);
      const list = source.filter(
        (t) =>
          inRange(t.filing_date) &&
          (!name || t.name.toLowerCase() === name) &&
          (!q.transaction_type || transactionType(t) === q.transaction_type),
      );
      return { insider_trades: list.slice(0, q.limit ?? INSIDER_LIMITS.defaultLimit) };
    },
  };
}
