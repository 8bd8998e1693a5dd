import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import * as c from '../../contract/conversations.js';
import { registerRoute } from '../http/register.js';
import { validatePart } from '../http/validate.js';
import { HttpError } from '../errors.js';
import * as service from '../services/conversations.service.js';
import { findStream } from '../store/streams.repo.js';
import { serveStream } from '../streams/sse.js';

/** The Last-Event-ID header as an offset; a value that is not one is a 400, never a replay from 0. */
function lastEventId(value: string | string[] | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  return validatePart('header', c.StreamHeaders, { 'last-event-id': value })['last-event-id'];
}

export function conversationRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, c.createConversation, ({ auth, body }) => service.createConversation(ctx, auth, body));
  registerRoute(app, ctx, c.followUp, ({ auth, params, body }) =>
    service.followUp(ctx, auth, params.thread_short_id, body.query, body.include_generated === true),
  );
  registerRoute(app, ctx, c.listConversations, ({ auth, query }) => service.list(ctx, auth, query));
  registerRoute(app, ctx, c.getConversation, ({ auth, params }) => service.detail(ctx, auth, params.thread_short_id));

  registerRoute(app, ctx, c.streamConversation, async ({ auth, params, query, request, reply }) => {
    const resumeAt = lastEventId(request.headers['last-event-id']) ?? query.offset ?? 0;
    const stream = await findStream(ctx.db, params.stream_key);
    if (!stream || stream.user_id !== auth.user.id)
      throw new HttpError(
        'STREAM_NOT_FOUND',
        'No such stream key; it may never have existed or was cleaned up after expiring',
      );
    if (ctx.now().toISOString() > stream.expires_at) {
      throw new HttpError(
        'STREAM_EXPIRED',
        `The stream key expired at ${stream.expires_at}; stream keys are readable for ${ctx.config.streamTtlSeconds} s`,
      );
    }
    await serveStream(ctx.streams, stream.key, resumeAt, request, reply, ctx.config.streamHeartbeatSeconds);
  });
}
