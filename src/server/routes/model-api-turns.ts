import type { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MessagesRequest } from '../../contract/model-api-messages.js';
import type { ResponsesRequest } from '../../contract/model-api-responses.js';
import type { AppContext } from '../context.js';
import type { GatewayStreamEvent, GenerateResult, MeterScope } from '../engines/gateway-types.js';
import { abortOnClose, streamToClient } from '../http/sse.js';
import { messageFor, messagesStreamWriter, messagesToGateway } from '../services/model-api/messages.js';
import {
  adjustResult,
  adjustStream,
  planMessages,
  thinkingFrames,
  withThinking,
} from '../services/model-api/messages-extras.js';
import { nowSeconds } from '../services/model-api/content.js';
import { prepareResponseTurn } from '../services/model-api/response-store.js';
import { responseObject, shell } from '../services/model-api/responses.js';
import { responsesToGateway } from '../services/model-api/responses-request.js';
import { responsesStreamWriter } from '../services/model-api/responses-stream.js';
import { prepareThreadTurn } from '../services/model-api/threads.js';
import { randomToken } from '../store/ids.js';

/**
 * The two generating routes whose turns can be kept between requests: Responses (store,
 * previous_response_id) and Messages (threads; thinking and prefill too). What is kept is written
 * before the answer's last event, so a client that sends its next turn at once finds it.
 */

async function* storeBeforeDone(
  events: AsyncIterable<GatewayStreamEvent>,
  beforeDone: (r: GenerateResult) => Promise<void>,
  onFail: () => Promise<void> = async () => undefined,
) {
  let done = false;
  try {
    for await (const ev of events) {
      if (ev.type === 'done') {
        await beforeDone(ev.result);
        done = true;
      }
      yield ev;
    }
  } finally {
    if (!done) await onFail().catch(() => undefined);
  }
}

export async function respond(
  ctx: AppContext,
  owner: string,
  scope: MeterScope,
  body: z.infer<typeof ResponsesRequest>,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const turn = await prepareResponseTurn(ctx, owner, body);
  const req = responsesToGateway(turn.body, scope);
  const s = { ...shell(body, nowSeconds(ctx.now())), echo: turn.echo };
  const final = (r: GenerateResult) => responseObject(s, r);
  if (body.stream) {
    const open = (signal: AbortSignal) =>
      storeBeforeDone(ctx.gateway.stream({ ...req, signal }), (r) => turn.persist(final(r)));
    return streamToClient(request, reply, 'openai', open, responsesStreamWriter(body, s.created, s));
  }
  const resp = final(await ctx.gateway.generate({ ...req, signal: abortOnClose(reply) }));
  await turn.persist(resp);
  return resp;
}

export async function message(
  ctx: AppContext,
  owner: string,
  scope: MeterScope,
  body: z.infer<typeof MessagesRequest>,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const thread = await prepareThreadTurn(ctx, owner, body);
  try {
    const full = thread?.body ?? body;
    const req = messagesToGateway(full, scope);
    const plan = await planMessages(ctx.modelDirectory, full, req);
    const id = `msg_${randomToken(24)}`;
    const shaped = (r: GenerateResult) => withThinking(plan, { ...messageFor(body, r), id });
    if (body.stream) {
      const writer = messagesStreamWriter(body, { id, firstBlock: plan.thinking ? 1 : 0 });
      const start = writer.start.bind(writer);
      if (plan.thinking) writer.start = (opening) => start(opening) + thinkingFrames(plan.thinking!);
      const open = (signal: AbortSignal) =>
        storeBeforeDone(
          adjustStream(plan, ctx.gateway.stream({ ...req, signal })),
          async (r) => thread?.persist(shaped(r)),
          async () => thread?.release(),
        );
      return await streamToClient(request, reply, 'anthropic', open, writer);
    }
    const out = shaped(adjustResult(plan, await ctx.gateway.generate({ ...req, signal: abortOnClose(reply) })));
    await thread?.persist(out);
    return out;
  } catch (err) {
    await thread?.release().catch(() => undefined);
    throw err;
  }
}
