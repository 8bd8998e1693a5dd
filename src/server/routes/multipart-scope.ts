import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import type { AppContext } from '../context.js';
import { FORM_LIMITS } from '../http/multipart.js';

/**
 * Registers the routes that take multipart forms in a Fastify scope of their own, with the upload
 * limits. Only those routes belong here: the multipart plugin adds an onRequest and an onResponse
 * hook to every route of its scope (each an async function and a close listener per request), and
 * a JSON route outside it answers a multipart body with 415. Files beyond the limit end in 413.
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
