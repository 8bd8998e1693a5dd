import type { IncomeQuery, IncomeStatement, InsiderQuery, InsiderTrade } from '../../contract/beta-financial.js';
import { importedRows } from '../store/beta-data.repo.js';
import type { AuthContext } from '../auth/authenticate.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import type { FinancialProvider } from '../providers/beta/financial-provider.js';
import { localFinancialProvider } from '../providers/beta/local/financial-local.js';
import { upstreamFinancialProvider } from '../providers/beta/upstream.js';
import { incomeStatements as incomeRoute, insiderTrades as insidersRoute } from '../../contract/beta-financial.js';

const providers = new WeakMap<AppContext, FinancialProvider>();

export function financialProvider(ctx: AppContext): FinancialProvider {
  let p = providers.get(ctx);
  if (!p) {
    const upstream = ctx.config?.upstreams?.beta;
    p = upstream
      ? upstreamFinancialProvider(upstream, ctx.fetchPolicy, { income: incomeRoute.path, insiders: insidersRoute.path })
      : localFinancialProvider({
          income: (ticker) => importedRows<IncomeStatement>(ctx.db, 'income', ticker),
          insiders: (ticker) => importedRows<InsiderTrade>(ctx.db, 'insiders', ticker),
        });
    providers.set(ctx, p);
  }
  return p;
}

/** What needs a paid plan (spec: 402 "paid subscription needed"): trailing-twelve-month statements. */
function requirePaidFor(auth: AuthContext, what: string): void {
  if (auth.user.plan !== 'paid')
    throw new HttpError('PAYMENT_REQUIRED', `${what} need a paid plan; this account is on the free plan`, {
      status: 402,
    });
}

export async function incomeStatements(ctx: AppContext, auth: AuthContext, query: IncomeQuery) {
  if (!query.ticker && !query.cik) throw new HttpError('MISSING_PARAMETER', 'ticker or cik is required');
  if (query.period === 'ttm') requirePaidFor(auth, 'trailing-twelve-month (ttm) statements');
  return financialProvider(ctx).incomeStatements(query);
}

export async function insiderTrades(ctx: AppContext, _auth: AuthContext, query: InsiderQuery) {
  return financialProvider(ctx).insiderTrades(query);
}
