import type { z } from 'zod';
import { createChatCompletion, type ChatCompletionRequest } from '../contract/model-api-chat.js';
import { createImage } from '../contract/model-api-media.js';
import { createMessage, type MessagesRequest } from '../contract/model-api-messages.js';
import { createResponse, type ResponsesRequest } from '../contract/model-api-responses.js';
import {
  getApiModel,
  listApiModels,
  listDecisionModels,
  listVideoModels,
  type ModelDetail,
  type ModelList,
} from '../contract/model-api-models.js';
import { adminGetModel, adminHideModel, adminListModels, adminShowModel } from '../contract/admin-models.js';
import { callRoute } from './call.js';
import { ApiError, NetworkError, RequestTimeoutError, describeErrorBody } from './errors.js';
import { parseEventStream } from '../contract/event-stream.js';
import { authHeaders, type Transport } from './transport.js';
import { HttpTimeoutError, httpRequest, readBody } from './http.js';

/** Opens a streaming POST on a /api/v1 surface and yields its events' JSON payloads. */
async function* streamEvents(
  t: Transport,
  path: string,
  body: unknown,
  signal?: AbortSignal,
): AsyncIterable<{ event?: string; data: string }> {
  const o = t.options;
  const url = o.baseUrl.replace(/\/+$/, '') + path;
  let res;
  try {
    res = await httpRequest(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        'user-agent': o.userAgent ?? 'facet-cli',
        ...authHeaders('key', o.credentials),
      },
      body: JSON.stringify(body),
      headersTimeout: o.timeoutMs ?? 30_000,
      bodyTimeout: o.timeoutMs ?? 30_000,
      signal,
    });
  } catch (err) {
    if (err instanceof HttpTimeoutError)
      throw new RequestTimeoutError(`the model call did not answer within ${(o.timeoutMs ?? 30_000) / 1000} s`, url);
    throw new NetworkError(
      `cannot reach ${o.baseUrl}: ${(err as Error & { code?: string }).code ?? (err as Error).message}`,
      url,
    );
  }
  const requestId = res.headers['x-request-id'] as string | undefined;
  o.debug?.(`← ${res.statusCode} POST ${url} (stream) request-id=${requestId ?? '-'}`);
  if (res.statusCode >= 400) {
    const text = (await readBody(res.body)).toString('utf8');
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    const d = describeErrorBody(res.statusCode, parsed);
    throw new ApiError(res.statusCode, d.code, d.message, d.requestId ?? requestId, parsed);
  }
  yield* parseEventStream(res.body);
}

export const modelApiClient = (t: Transport) => ({
  // This client sends no anthropic-version header, so the platform answers in the OpenAI shape.
  list: (query: { provider?: string; exclude_video_and_decisions?: boolean } = {}) =>
    callRoute(t, listApiModels, {
      query: {
        provider: query.provider,
        exclude_video_and_decisions:
          query.exclude_video_and_decisions === undefined
            ? undefined
            : (String(query.exclude_video_and_decisions) as 'true'),
      },
    }) as Promise<z.infer<typeof ModelList>>,
  listVideo: (provider?: string) => callRoute(t, listVideoModels, { query: { provider } }),
  listDecisions: (provider?: string) => callRoute(t, listDecisionModels, { query: { provider } }),
  get: (id: string) => callRoute(t, getApiModel, { params: { model_id: id } }) as Promise<ModelDetail>,
  chat: (body: z.input<typeof ChatCompletionRequest>) =>
    callRoute(t, createChatCompletion, { body: { ...body, stream: false } }),
  responses: (body: z.input<typeof ResponsesRequest>) =>
    callRoute(t, createResponse, { body: { ...body, stream: false } }),
  messages: (body: z.input<typeof MessagesRequest>) =>
    callRoute(t, createMessage, { body: { ...body, stream: false } }),
  image: (body: { prompt: string; model?: string; n?: number; size?: string }) => callRoute(t, createImage, { body }),
  /** Raw events of a streamed call on one surface. */
  stream: (surface: 'chat' | 'responses' | 'messages', body: Record<string, unknown>, signal?: AbortSignal) =>
    streamEvents(
      t,
      { chat: createChatCompletion.path, responses: createResponse.path, messages: createMessage.path }[surface],
      { ...body, stream: true },
      signal,
    ),
});

export const adminModelsClient = (t: Transport) => ({
  list: () => callRoute(t, adminListModels),
  get: (id: string) => callRoute(t, adminGetModel, { params: { model_id: id } }),
  show: (id: string) => callRoute(t, adminShowModel, { params: { model_id: id } }),
  hide: (id: string) => callRoute(t, adminHideModel, { params: { model_id: id } }),
});
