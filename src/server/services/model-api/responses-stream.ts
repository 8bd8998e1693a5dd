import type { z } from 'zod';
import type { ResponseObject } from '../../../contract/model-api-responses.js';
import type { ToolCall } from '../../engines/gateway-types.js';
import { sseFrame, type StreamWriter } from '../../http/sse.js';
import type { ResponsesBody as Body } from './responses-request.js';
import { callItem, callItemId, messageItem, responseObject, shell, type Shell } from './responses.js';

/**
 * The Responses event sequence: created, in_progress; a message item (its part, text deltas, done
 * events) opened by the first text; a function_call item per tool call (added, arguments deltas,
 * arguments done, item done), each item closed before the next opens; completed (or incomplete).
 */
export function responsesStreamWriter(body: Body, created: number, s: Shell = shell(body, created)): StreamWriter {
  let seq = 0;
  let text = '';
  let items = 0;
  const calls: ToolCall[] = [];
  let open: { kind: 'message'; index: number } | { kind: 'call'; index: number; call: number } | null = null;
  const ev = (type: string, data: Record<string, unknown>) => sseFrame({ type, sequence_number: seq++, ...data }, type);
  const close = () => {
    const o = open;
    if (!o) return '';
    open = null;
    if (o.kind === 'message') {
      const where = { item_id: s.messageId, output_index: o.index, content_index: 0 };
      return (
        ev('response.output_text.done', { ...where, text, logprobs: [] }) +
        ev('response.content_part.done', { ...where, part: { type: 'output_text', text, annotations: [] } }) +
        ev('response.output_item.done', { output_index: o.index, item: messageItem(s, text, 'completed') })
      );
    }
    const c = calls[o.call];
    return (
      ev('response.function_call_arguments.done', {
        item_id: callItemId(s, o.call),
        output_index: o.index,
        name: c.name,
        arguments: c.arguments,
      }) + ev('response.output_item.done', { output_index: o.index, item: callItem(s, o.call, c, 'completed') })
    );
  };
  const openMessage = () => {
    const head = close();
    const index = items++;
    open = { kind: 'message', index };
    return (
      head +
      ev('response.output_item.added', {
        output_index: index,
        item: { ...messageItem(s, '', 'in_progress'), content: [] },
      }) +
      ev('response.content_part.added', {
        item_id: s.messageId,
        output_index: index,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      })
    );
  };
  const outputIndexOf = new Map<number, number>();
  return {
    start: () =>
      ev('response.created', { response: responseObject(s, null) }) +
      ev('response.in_progress', { response: responseObject(s, null) }),
    delta: (delta) => {
      const head = open?.kind === 'message' ? '' : openMessage();
      text += delta;
      return (
        head +
        ev('response.output_text.delta', {
          item_id: s.messageId,
          output_index: open!.index,
          content_index: 0,
          delta,
          logprobs: [],
        })
      );
    },
    toolCall: (index, callId, name) => {
      const head = close();
      calls[index] = { id: callId, name, arguments: '' };
      open = { kind: 'call', index: items++, call: index };
      outputIndexOf.set(index, open.index);
      return (
        head +
        ev('response.output_item.added', {
          output_index: open.index,
          item: callItem(s, index, calls[index], 'in_progress'),
        })
      );
    },
    toolArguments: (index, delta) => {
      calls[index].arguments += delta;
      return ev('response.function_call_arguments.delta', {
        item_id: callItemId(s, index),
        output_index: outputIndexOf.get(index) ?? 0,
        delta,
      });
    },
    done: (r) => {
      // A reply with no output at all still shows its (empty) message, as the plain answer does.
      const out = (items === 0 ? openMessage() : '') + close();
      const final = responseObject(s, r);
      return (
        out + ev(final.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: final })
      );
    },
    error: (b) => {
      const e = (b as { error?: { message?: string; code?: string } }).error ?? {};
      const failed: z.infer<typeof ResponseObject> = {
        ...responseObject(s, null),
        status: 'failed',
        output_text: text,
        error: { code: e.code ?? 'server_error', message: e.message ?? 'failed' },
      };
      return (
        ev('error', { code: e.code ?? null, message: e.message ?? 'failed', param: null }) +
        ev('response.failed', { response: failed })
      );
    },
  };
}
