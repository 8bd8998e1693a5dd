import { getEventListeners } from 'node:events';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorFamily } from '../../contract/route.js';
import type { GatewayStreamEvent, GenerateResult, StreamOpening } from '../engines/gateway-types.js';
import { shapeError } from './error-shape.js';

/** One server-sent event: an optional event line, then the data line. */
export function sseFrame(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

/** How one family writes a stream: frames to open it, for each delta, at the end, and on failure. */
export interface StreamWriter {
  /** Opens the stream; `opening` is the prompt's usage, known before the first token. */
  start(opening: StreamOpening): string;
  delta(text: string): string;
  /** Opens tool call number `index` (from 0) with its id and name. */
  toolCall(index: number, id: string, name: string): string;
  /** A piece of tool call `index`'s JSON arguments. */
  toolArguments(index: number, delta: string): string;
  done(result: GenerateResult): string;
  /** The family's error body, already shaped. */
  error(body: unknown): string;
}

/**
 * Runs a gateway stream as server-sent events. The first event (the gateway's `start`, with the
 * prompt's usage) is awaited before anything is sent, so a bad model, a limit or an upstream refusal
 * still answers with its proper status and error body; after that, failures are reported in-stream
 * in the family's shape. A client that disconnects aborts the generation (the gateway still meters
 * what was produced).
 */
export async function streamToClient(
  request: FastifyRequest,
  reply: FastifyReply,
  family: ErrorFamily,
  open: (signal: AbortSignal) => AsyncIterable<GatewayStreamEvent>,
  writer: StreamWriter,
): Promise<FastifyReply> {
  const abort = new AbortController();
  const raw = reply.raw;
  // Registered first: a caller who leaves while the model is still thinking cancels it too.
  raw.on('close', () => {
    if (!raw.writableEnded) abort.abort();
  });
  const events = open(abort.signal)[Symbol.asyncIterator]();
  let next = await events.next();
  const opening: StreamOpening =
    !next.done && next.value.type === 'start'
      ? next.value.usage
      : { inputTokens: undefined, cacheReadTokens: 0, cacheWriteTokens: 0 };

  reply.hijack();
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-request-id': request.id,
    'request-id': request.id,
    'x-accel-buffering': 'no',
  });
  const write = async (chunk: string) => {
    if (raw.destroyed || raw.writableEnded) return;
    if (!raw.write(chunk)) await new Promise<void>((resolve) => raw.once('drain', resolve).once('close', resolve));
  };

  try {
    await write(writer.start(opening));
    if (!next.done && next.value.type === 'start') next = await events.next();
    while (!next.done) {
      const ev = next.value;
      if (ev.type === 'delta') await write(writer.delta(ev.text));
      else if (ev.type === 'tool_call') await write(writer.toolCall(ev.index, ev.id, ev.name));
      else if (ev.type === 'tool_arguments') await write(writer.toolArguments(ev.index, ev.delta));
      else if (ev.type === 'done') await write(writer.done(ev.result));
      if (abort.signal.aborted) break;
      next = await events.next();
    }
  } catch (err) {
    if (!abort.signal.aborted) {
      const shaped = shapeError(family, err, request.id);
      if (shaped.status >= 500) request.log.error({ err }, 'stream failed');
      await write(writer.error(shaped.body));
    }
  } finally {
    await events.return?.();
    if (!raw.writableEnded) raw.end();
  }
  return reply;
}

/**
 * The abort controller of each connection's requests. Making an AbortSignal costs Node several
 * microseconds (more than the rest of a request's abort wiring together), so requests that follow
 * one another on a kept-alive connection share one: it aborts only when a response closes
 * unfinished, which on HTTP/1.1 means the connection is gone, and with it every request on it.
 * A signal that still has listeners when the next request comes (a request under way on the same
 * connection, or a listener someone left behind) is not handed out again: that request gets its own.
 */
const connectionAborts = new WeakMap<object, AbortController>();

/** Connects a plain request to an abort signal, for non-streaming calls cut short by the caller. */
export function abortOnClose(reply: FastifyReply): AbortSignal {
  const socket = reply.raw.socket;
  let abort = socket ? connectionAborts.get(socket) : undefined;
  if (!abort || abort.signal.aborted || getEventListeners(abort.signal, 'abort').length > 0) {
    abort = new AbortController();
    if (socket) connectionAborts.set(socket, abort);
  }
  const controller = abort;
  reply.raw.on('close', () => {
    if (!reply.raw.writableEnded) controller.abort();
  });
  return controller.signal;
}
