import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import * as c from '../../contract/social-routes.js';
import { registerRoute } from '../http/register.js';
import * as service from '../services/social.service.js';

/** Puts the cost, balance and rate-limit headers on the reply and answers with the data. */
async function send<T>(reply: FastifyReply, answer: Promise<service.Billed<T>>): Promise<T> {
  const { data, headers } = await answer;
  reply.headers(headers);
  return data;
}

export function socialRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, c.userInfo, ({ auth, body, reply }) => send(reply, service.userInfo(ctx, auth, body)));
  registerRoute(app, ctx, c.userSearch, ({ auth, body, reply }) => send(reply, service.userSearch(ctx, auth, body)));
  registerRoute(app, ctx, c.userTweets, ({ auth, body, reply }) => send(reply, service.userTweets(ctx, auth, body)));
  registerRoute(app, ctx, c.tweetSearch, ({ auth, body, reply }) => send(reply, service.tweetSearch(ctx, auth, body)));
  registerRoute(app, ctx, c.tweetReplies, ({ auth, body, reply }) =>
    send(reply, service.tweetReplies(ctx, auth, body)),
  );
  registerRoute(app, ctx, c.betaReplies, ({ auth, query, reply }) =>
    send(reply, service.betaReplies(ctx, auth, query)),
  );
  registerRoute(app, ctx, c.betaSearch, ({ auth, query, reply }) => send(reply, service.betaSearch(ctx, auth, query)));
}
