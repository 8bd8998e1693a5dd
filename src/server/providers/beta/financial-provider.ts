import type { IncomeQuery, IncomeStatement, InsiderQuery, InsiderTrade } from '../../../contract/beta-financial.js';

/** A source of financial data: the local seeded store or an upstream compatible provider. */
export interface FinancialProvider {
  readonly kind: 'local' | 'upstream';
  /** Throws HttpError NOT_FOUND for an unknown company. */
  incomeStatements(query: IncomeQuery): Promise<{ income_statements: IncomeStatement[] }>;
  insiderTrades(query: InsiderQuery): Promise<{ insider_trades: InsiderTrade[] }>;
}
