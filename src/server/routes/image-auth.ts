import type { FastifyInstance } from 'fastify';
import { serialize } from 'cookie';
import type { AppContext } from '../context.js';
import { createKey, createSessionCookie, deleteKey, deleteSessionCookie, listKeys, whoami } from '../../contract/image-auth.js';
import { registerRoute } from '../http/register.js';
import * as keys from '../services/keys.service.js';
import { SESSION_COOKIE } from '../auth/authenticate.js';
import { verifyAccessToken } from '../auth/tokens.js';
import { publicUser } from '../services/users.service.js';

export function imageAuthRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, whoami, ({ auth }) => ({
    user: publicUser(auth.user),
    via: auth.via,
    api_key: auth.apiKey ? keys.keyInfo(auth.apiKey) : null,
  }));

  registerRoute(app, ctx, listKeys, ({ auth }) => keys.listKeys(ctx, { userId: auth.user.id }));

  registerRoute(app, ctx, createKey, ({ auth, body }) =>
    keys.createKey(ctx, { userId: auth.user.id, name: body.name, expiresInDays: body.expires_in_days, maxKeys: ctx.config.maxKeysPerUser }),
  );

  registerRoute(app, ctx, deleteKey, ({ auth, params }) => keys.deleteKey(ctx, params.key_id, auth.user.id));

  registerRoute(app, ctx, createSessionCookie, async ({ request, reply }) => {
    // The bearer token was verified by the auth layer; the cookie carries it for browser use.
    const token = request.headers.authorization!.slice('Bearer '.length);
    const check = await verifyAccessToken(ctx.tokenSecret, token, ctx.now());
    const maxAge = check.ok ? Math.max(0, check.exp - Math.floor(ctx.now().getTime() / 1000)) : 0;
    reply.header('set-cookie', serialize(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', path: '/', maxAge }));
  });

  registerRoute(app, ctx, deleteSessionCookie, ({ reply }) => {
    reply.header('set-cookie', serialize(SESSION_COOKIE, '', { httpOnly: true, sameSite: 'lax', path: '/', maxAge: 0 }));
  });
}
