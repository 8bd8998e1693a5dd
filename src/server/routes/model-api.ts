import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { countMessageTokens, createMessage } from '../../contract/model-api-messages.js';
import { createChatCompletion } from '../../contract/model-api-chat.js';
import { createDecision, createImage, createVideo } from '../../contract/model-api-media.js';
import { createResponse } from '../../contract/model-api-responses.js';
import { getApiModel, listApiModels, listDecisionModels, listVideoModels } from '../../contract/model-api-models.js';
import type { AuthContext } from '../auth/authenticate.js';
import type { MeterScope } from '../engines/gateway-types.js';
import { HttpError } from '../errors.js';
import { registerRoute } from '../http/register.js';
import { abortOnClose, streamToClient } from '../http/sse.js';
import { chatCompletion, chatStreamWriter, chatToGateway } from '../services/model-api/chat-completions.js';
import { messagesToGateway } from '../services/model-api/messages.js';
import { ownerOf } from '../services/model-api/stored.js';
import { message, respond } from './model-api-turns.js';
import { storedResponseRoutes } from './model-api-stored.js';
import {
  anthropicModel,
  anthropicModelPage,
  discoverModel,
  discoverModels,
} from '../services/model-api/catalog-view.js';
import { generateImages } from '../services/model-api/images.js';
import { nowSeconds } from '../services/model-api/content.js';

function scopeOf(auth: AuthContext, operation: string): MeterScope {
  return { apiKeyId: auth.apiKey?.id ?? null, userId: auth.user.id, operation };
}

export function modelApiRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, createChatCompletion, async ({ body, auth, request, reply }) => {
    const req = chatToGateway(body, scopeOf(auth, 'chat.completions'));
    const created = nowSeconds(ctx.now());
    if (body.stream) {
      const writer = chatStreamWriter(body.model, created, body.stream_options?.include_usage === true);
      return streamToClient(request, reply, 'openai', (signal) => ctx.gateway.stream({ ...req, signal }), writer);
    }
    return chatCompletion(await ctx.gateway.generate({ ...req, signal: abortOnClose(reply) }), created);
  });

  // Stored responses and threads (model-api-turns.ts, model-api-stored.ts).
  registerRoute(app, ctx, createResponse, ({ body, auth, request, reply }) =>
    respond(ctx, ownerOf(auth), scopeOf(auth, 'responses'), body, request, reply),
  );
  registerRoute(app, ctx, createMessage, ({ body, auth, request, reply }) =>
    message(ctx, ownerOf(auth), scopeOf(auth, 'messages'), body, request, reply),
  );
  storedResponseRoutes(app, ctx, (auth) => scopeOf(auth, 'responses.input_tokens'));

  registerRoute(app, ctx, countMessageTokens, async ({ body, auth }) => {
    const req = messagesToGateway(body, scopeOf(auth, 'messages.count_tokens'));
    if (!ctx.gateway.countInputTokens)
      throw new HttpError('not_supported', 'This gateway cannot count tokens', { status: 400 });
    return { input_tokens: await ctx.gateway.countInputTokens(req) };
  });

  // The Anthropic client sends anthropic-version with every request; it reads models in its own shape.
  registerRoute(app, ctx, listApiModels, async ({ query, request }) => {
    const filter = { provider: query.provider, excludeVideoAndDecisions: query.exclude_video_and_decisions };
    if (request.headers['anthropic-version']) return anthropicModelPage(ctx.modelDirectory, filter, query);
    return discoverModels(ctx.modelDirectory, filter);
  });
  registerRoute(app, ctx, listVideoModels, ({ query }) =>
    discoverModels(ctx.modelDirectory, { provider: query.provider, kinds: ['video_generation'] }),
  );
  registerRoute(app, ctx, listDecisionModels, ({ query }) =>
    discoverModels(ctx.modelDirectory, { provider: query.provider, kinds: ['decisions'] }),
  );
  registerRoute(app, ctx, getApiModel, async ({ params, request }) =>
    request.headers['anthropic-version']
      ? anthropicModel(ctx.modelDirectory, params.model_id)
      : discoverModel(ctx.modelDirectory, params.model_id),
  );

  registerRoute(app, ctx, createImage, ({ body, auth }) =>
    generateImages(ctx, ctx.modelDirectory, body, scopeOf(auth, 'images.generations')),
  );

  registerRoute(app, ctx, createVideo, async ({ body }) => {
    const model = await ctx.modelDirectory.get(body.model);
    if (!model?.offered)
      throw new HttpError('model_not_found', `The model ${body.model} does not exist or is not available`, {
        status: 404,
      });
    if (model.model_kind !== 'video_generation') {
      throw new HttpError(
        'model_not_supported',
        `Model ${body.model} is a ${model.model_kind} model, not a video_generation one`,
        { status: 400 },
      );
    }
    // No upstream adapter of this platform generates video, so a listed video model cannot run here.
    throw new HttpError(
      'video_generation_unavailable',
      `Video generation with ${body.model} needs an upstream that offers video, and none is configured on this platform`,
      {
        status: 501,
        headers: { 'x-should-retry': 'false' },
      },
    );
  });

  // "Whatever the body": this route reads no body at all, so even malformed JSON gets the same answer.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 10 * 1024 * 1024 }, (_req, _body, done) =>
      done(null, undefined),
    );
    registerRoute(scope, ctx, createDecision, () => {
      throw new HttpError(
        'NOT_IMPLEMENTED',
        'The decisions endpoint is planned and not yet available; streaming is not supported either',
        {
          status: 501,
          headers: { 'x-should-retry': 'false' },
        },
      );
    });
  });
}
