import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import {
  countResponseInputTokens,
  deleteResponse,
  getResponse,
  listResponseInputItems,
} from '../../contract/model-api-stored.js';
import type { AuthContext } from '../auth/authenticate.js';
import type { MeterScope } from '../engines/gateway-types.js';
import { HttpError } from '../errors.js';
import { registerRoute } from '../http/register.js';
import {
  deleteStoredResponse,
  inputItems,
  prepareResponseTurn,
  storedResponse,
} from '../services/model-api/response-store.js';
import { responsesToGateway } from '../services/model-api/responses-request.js';
import { ownerOf } from '../services/model-api/stored.js';

/** GET/DELETE a stored response, its input items, and the input tokens a request would use. */
export function storedResponseRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  scopeOf: (auth: AuthContext) => MeterScope,
): void {
  registerRoute(app, ctx, getResponse, ({ params, auth }) => storedResponse(ctx, ownerOf(auth), params.response_id));
  registerRoute(app, ctx, deleteResponse, ({ params, auth }) =>
    deleteStoredResponse(ctx, ownerOf(auth), params.response_id),
  );
  registerRoute(app, ctx, listResponseInputItems, ({ params, query, auth }) =>
    inputItems(ctx, ownerOf(auth), params.response_id, query),
  );
  registerRoute(app, ctx, countResponseInputTokens, async ({ body, auth }) => {
    if (!ctx.gateway.countInputTokens)
      throw new HttpError('not_supported', 'This gateway cannot count tokens', { status: 400 });
    // Counting stores nothing: the turn is prepared as a store: false request would be.
    const turn = await prepareResponseTurn(ctx, ownerOf(auth), { ...body, input: body.input ?? [], store: false });
    return {
      object: 'response.input_tokens' as const,
      input_tokens: await ctx.gateway.countInputTokens(responsesToGateway(turn.body, scopeOf(auth))),
    };
  });
}
