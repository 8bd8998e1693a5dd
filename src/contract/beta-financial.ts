import { z } from 'zod';
import { defineRoute } from './route.js';
import { FinancialErrorBody } from './errors.js';
import { textInt } from './fields.js';

/**
 * Financial beta endpoints (spec 4.9, 2.13); errors in the financial shape {error, message}. Result
 * objects are loose: an upstream provider's answers pass through unchanged and may carry more fields.
 */

const DateParam = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD');
const Limit = (max: number) => textInt({ min: 1, max });

export const INCOME_LIMITS = { defaultLimit: 4, maxLimit: 120 } as const;
export const INSIDER_LIMITS = { defaultLimit: 10, maxLimit: 1000 } as const;

export const IncomeQuery = z.object({
  period: z.enum(['annual', 'quarterly', 'ttm']),
  ticker: z.string().min(1).max(10).optional(),
  cik: z
    .string()
    .regex(/^\d{1,10}$/, 'digits only')
    .optional(),
  limit: Limit(INCOME_LIMITS.maxLimit).optional().describe(`default ${INCOME_LIMITS.defaultLimit}`),
  report_period: DateParam.optional(),
  report_period_gte: DateParam.optional(),
  report_period_lte: DateParam.optional(),
  report_period_gt: DateParam.optional(),
  report_period_lt: DateParam.optional(),
});
export type IncomeQuery = z.infer<typeof IncomeQuery>;

export const IncomeStatement = z.looseObject({
  ticker: z.string(),
  report_period: z.string(),
  fiscal_period: z.string(),
  period: z.enum(['quarterly', 'ttm', 'annual']),
  currency: z.string(),
  revenue: z.number(),
  cost_of_revenue: z.number(),
  gross_profit: z.number(),
  operating_expense: z.number(),
  selling_general_and_administrative_expenses: z.number(),
  research_and_development: z.number(),
  operating_income: z.number(),
  interest_expense: z.number(),
  ebit: z.number(),
  income_tax_expense: z.number(),
  net_income_discontinued_operations: z.number(),
  net_income_non_controlling_interests: z.number(),
  net_income: z.number(),
  net_income_common_stock: z.number(),
  preferred_dividends_impact: z.number(),
  consolidated_income: z.number(),
  earnings_per_share: z.number(),
  earnings_per_share_diluted: z.number(),
  dividends_per_common_share: z.number(),
  weighted_average_shares: z.number(),
  weighted_average_shares_diluted: z.number(),
});
export type IncomeStatement = z.infer<typeof IncomeStatement>;

export const InsiderQuery = z.object({
  ticker: z.string().min(1).max(10),
  limit: Limit(INSIDER_LIMITS.maxLimit).optional().describe(`default ${INSIDER_LIMITS.defaultLimit}`),
  name: z.string().min(1).max(200).optional().describe('the insider, case-insensitive'),
  transaction_type: z
    .enum(['buy', 'sell', 'grant'])
    .optional()
    .describe('buy: shares bought at a price; sell: shares sold; grant: shares received at no price'),
  filing_date: DateParam.optional(),
  filing_date_gte: DateParam.optional(),
  filing_date_lte: DateParam.optional(),
  filing_date_gt: DateParam.optional(),
  filing_date_lt: DateParam.optional(),
});
export type InsiderQuery = z.infer<typeof InsiderQuery>;

export const InsiderTrade = z.looseObject({
  ticker: z.string(),
  issuer: z.string(),
  name: z.string(),
  title: z.string().nullable(),
  is_board_director: z.boolean(),
  transaction_date: z.string(),
  transaction_shares: z.number(),
  transaction_price_per_share: z.number(),
  transaction_value: z.number(),
  shares_owned_before_transaction: z.number(),
  shares_owned_after_transaction: z.number(),
  security_title: z.string(),
  filing_date: z.string(),
});
export type InsiderTrade = z.infer<typeof InsiderTrade>;

const errors = {
  400: FinancialErrorBody,
  401: FinancialErrorBody,
  402: FinancialErrorBody,
  404: FinancialErrorBody,
} as const;

export const incomeStatements = defineRoute({
  id: 'beta.financial.income-statements',
  method: 'GET',
  path: '/v1/beta/financial/financials/income-statements',
  auth: 'bearer-key',
  family: 'financial',
  tag: 'beta-financial',
  summary:
    'Income statements of a company by ticker or CIK; quarterly ones add up to the annual ones. ttm needs a paid plan (402).',
  query: IncomeQuery,
  responses: { 200: z.looseObject({ income_statements: z.array(IncomeStatement) }), ...errors },
});

export const insiderTrades = defineRoute({
  id: 'beta.financial.insider-trades',
  method: 'GET',
  path: '/v1/beta/financial/insider-trades',
  auth: 'bearer-key',
  family: 'financial',
  tag: 'beta-financial',
  summary: 'Insider trades of a company, newest filing first',
  query: InsiderQuery,
  responses: { 200: z.looseObject({ insider_trades: z.array(InsiderTrade) }), ...errors },
});

export const betaFinancialRoutes = [incomeStatements, insiderTrades];
