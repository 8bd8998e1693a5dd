import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { chat } from '../../contract/chat.js';
import { registerRoute } from '../http/register.js';
import * as service from '../services/chat.service.js';

export function chatRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, chat, ({ auth, body, reply }) =>
    service.chat(ctx, auth, (body as { query?: unknown }).query, (h) => reply.headers(h), {
      includeGenerated: (body as { include_generated?: boolean }).include_generated === true,
    }),
  );
}
