import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import { adminAudit, adminLogTail, ownAudit, ownLogTail } from '../../contract/audit.js';
import { NEXT_CURSOR_HEADER } from '../../contract/image-admin.js';
import { registerRoute } from '../http/register.js';
import { auditPage, type AuditQuery } from '../services/audit.service.js';
import { serveTail } from '../logs/tail.js';

/** The page's entries; X-Next-Cursor and Link (rel="next") when more follow, as the key listing does. */
async function page(ctx: AppContext, path: string, query: AuditQuery, reply: FastifyReply, visibleTo?: string) {
  const { entries, nextCursor } = await auditPage(ctx, query, visibleTo);
  if (nextCursor) {
    const next = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined && k !== 'cursor') next.set(k, String(v));
    next.set('cursor', nextCursor);
    reply.header(NEXT_CURSOR_HEADER, nextCursor).header('link', `<${ctx.baseUrl}${path}?${next}>; rel="next"`);
  }
  return entries;
}

export function auditRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, adminAudit, ({ query, reply }) => page(ctx, adminAudit.path, query, reply));
  registerRoute(app, ctx, ownAudit, ({ query, reply, auth }) => page(ctx, ownAudit.path, query, reply, auth.user.id));
  registerRoute(app, ctx, adminLogTail, ({ query, request, reply }) =>
    serveTail(ctx.requestLog, query, request, reply, ctx.config.streamHeartbeatSeconds),
  );
  registerRoute(app, ctx, ownLogTail, ({ query, request, reply, auth }) =>
    serveTail(
      ctx.requestLog,
      { ...query, ownerUserId: auth.user.id },
      request,
      reply,
      ctx.config.streamHeartbeatSeconds,
    ),
  );
}
