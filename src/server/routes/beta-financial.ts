import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { incomeStatements, insiderTrades } from '../../contract/beta-financial.js';
import { registerRoute } from '../http/register.js';
import * as service from '../services/beta-financial.service.js';

export function betaFinancialRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, incomeStatements, ({ auth, query }) => service.incomeStatements(ctx, auth, query));
  registerRoute(app, ctx, insiderTrades, ({ auth, query }) => service.insiderTrades(ctx, auth, query));
}
