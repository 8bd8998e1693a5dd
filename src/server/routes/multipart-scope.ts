import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import type { AppContext } from '../context.js';
import { FORM_LIMITS } from '../http/text-form.js';

/**
 * Registers a surface's routes in their own Fastify scope with multipart parsing, so the upload
 * limits apply to that surface only. Files beyond the limit end in 413.
 */
export function withMultipart(app: FastifyInstance, ctx: AppContext, routes: (scope: FastifyInstance) => void): void {
  app.register(async (scope) => {
    await scope.register(multipart, {
      throwFileSizeLimit: true,
      limits: { fileSize: ctx.config.maxUploadBytes, ...FORM_LIMITS },
    });
    routes(scope);
  });
}
