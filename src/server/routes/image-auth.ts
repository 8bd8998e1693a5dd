import type { FastifyInstance } from 'fastify';
import { serialize } from 'cookie';
import type { AppContext } from '../context.js';
import {
  createKey,
  createSessionCookie,
  deleteKey,
  deleteSessionCookie,
  listKeys,
  whoami,
} from '../../contract/image-auth.js';
import { registerRoute } from '../http/register.js';
import * as keys from '../services/keys.service.js';
import { SESSION_COOKIE } from '../auth/authenticate.js';
import { verifyAccessToken } from '../auth/tokens.js';
import { endSession, startSession } from '../auth/sessions.js';
import { credentialsOf } from '../http/register.js';
import { publicUser } from '../services/users.service.js';
import { HttpError } from '../errors.js';
import { actorOf } from '../http/audit-actor.js';
import { recordAudit } from '../services/audit.service.js';

export function imageAuthRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, whoami, ({ auth }) => ({
    user: publicUser(auth.user),
    via: auth.via,
    api_key: auth.apiKey ? keys.keyInfo(auth.apiKey) : null,
  }));

  registerRoute(app, ctx, listKeys, ({ auth }) => keys.listKeys(ctx, { userId: auth.user.id }));

  registerRoute(app, ctx, createKey, ({ auth, body, request }) =>
    keys.createKey(
      ctx,
      {
        userId: auth.user.id,
        name: body.name,
        expiresInDays: body.expires_in_days,
        maxKeys: ctx.config.maxKeysPerUser,
      },
      actorOf(request, auth),
    ),
  );

  registerRoute(app, ctx, deleteKey, ({ auth, params, request }) =>
    keys.deleteKey(ctx, params.key_id, auth.user.id, actorOf(request, auth)),
  );

  registerRoute(app, ctx, createSessionCookie, async ({ auth, request, reply }) => {
    // The bearer token was verified by the auth layer; the cookie gets a session of its own, never
    // the token (a session ends at logout and sooner than the token; auth/sessions.ts).
    const token = request.headers.authorization!.slice('Bearer '.length);
    const check = await verifyAccessToken(ctx.tokenSecret, token, ctx.now());
    if (!check.ok) throw new HttpError('INVALID_ACCESS_TOKEN', 'The access token is invalid', { status: 401 });
    const session = await startSession(ctx, auth.user.id, check.exp);
    await recordAudit(ctx, actorOf(request, auth), {
      action: 'session.login',
      targetType: 'user',
      targetId: auth.user.id,
      subjectUserId: auth.user.id,
      after: { session_expires_in_seconds: session.maxAgeSeconds },
    });
    reply.header(
      'set-cookie',
      serialize(SESSION_COOKIE, session.value, {
        httpOnly: true,
        sameSite: 'lax',
        path: '/',
        maxAge: session.maxAgeSeconds,
      }),
    );
  });

  registerRoute(app, ctx, deleteSessionCookie, async ({ request, reply }) => {
    // Logout ends the session on the server too: a copy of the cookie kept elsewhere stops working.
    await endSession(ctx, credentialsOf(request).sessionCookie);
    reply.header(
      'set-cookie',
      serialize(SESSION_COOKIE, '', { httpOnly: true, sameSite: 'lax', path: '/', maxAge: 0 }),
    );
  });
}
