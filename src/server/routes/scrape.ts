import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import * as c from '../../contract/scrape.js';
import { buildPath } from '../../contract/route.js';
import { registerRoute } from '../http/register.js';
import * as service from '../services/batch-scrape.service.js';

export function scrapeRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, c.createBatchScrape, async ({ auth, body, headers, reply }) => {
    const { job } = await service.createBatch(ctx, auth, headers['idempotency-key'], body);
    reply.header('location', buildPath(c.getBatchScrape.path, { id: job.id }));
    return job;
  });
  registerRoute(app, ctx, c.getBatchScrape, ({ auth, params }) => service.getBatch(ctx, auth, params.id));
  registerRoute(app, ctx, c.cancelBatchScrape, ({ auth, params }) => service.cancelBatch(ctx, auth, params.id));
}
