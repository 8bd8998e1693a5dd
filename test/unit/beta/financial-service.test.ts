import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../../src/server/context.js';
import type { AuthContext } from '../../../src/server/auth/authenticate.js';
import { incomeStatements } from '../../../src/server/services/beta-financial.service.js';

const ctx = {} as AppContext;
const as = (plan: 'free' | 'paid') => ({ user: { plan } }) as unknown as AuthContext;

describe('income statements: plan and parameters', () => {
  it('ttm needs a paid plan (402); annual and quarterly do not', async () => {
    await expect(incomeStatements(ctx, as('free'), { ticker: 'AAPL', period: 'ttm' })).rejects.toMatchObject({ status: 402, code: 'PAYMENT_REQUIRED' });
    expect((await incomeStatements(ctx, as('paid'), { ticker: 'AAPL', period: 'ttm' })).income_statements[0].period).toBe('ttm');
    expect((await incomeStatements(ctx, as('free'), { ticker: 'AAPL', period: 'annual' })).income_statements).toHaveLength(4);
  });

  it('ticker or cik is required', async () => {
    await expect(incomeStatements(ctx, as('paid'), { period: 'annual' })).rejects.toMatchObject({ status: 400, code: 'MISSING_PARAMETER' });
  });
});
