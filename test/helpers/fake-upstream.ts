import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake model upstream on 127.0.0.1 speaking both wire formats: Chat Completions under
 * /oai/v1/chat/completions and Messages under /ant/v1/messages. Tests script the next answer
 * (text, usage, an error) and read back every request it received.
 */
export interface Script {
  text?: string;
  /** Usage in the upstream's own format; null sends none. */
  usage?: Record<string, unknown> | null;
  finish?: string;
  status?: number;
  error?: string;
  retryAfter?: string;
  /** Streamed pieces (default: the text split in words), with this delay between them. */
  pieces?: string[];
  delayMs?: number;
  /** Drop the connection after streaming this many pieces. */
  breakAfter?: number;
  /** Tool calls after the text (arguments as JSON text); the default stop becomes the family's tool stop. */
  toolCalls?: Array<{ id: string; name: string; arguments: string }>;
  /** Streamed arguments come in pieces of this many characters (default 3: cutting keys, values and escapes). */
  argPiece?: number;
  /** Wait this long before answering at all, streamed or not (a model slower than the platform's timeout). */
  headersDelayMs?: number;
}

const piecesOf = (text: string, size: number) => {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
};

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, any>;
  /** Set when the platform hung up before the answer was complete. */
  cut?: boolean;
}

export interface FakeUpstream {
  url: string;
  openaiBase: string;
  anthropicBase: string;
  received: Received[];
  /** Answers for the next requests, in order; afterwards an echo of the last user message. */
  script(...answers: Script[]): void;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function lastUser(body: Record<string, any>): string {
  const m = [...(body.messages ?? [])].reverse().find((x: any) => x.role === 'user');
  return typeof m?.content === 'string' ? m.content : JSON.stringify(m?.content ?? '');
}

export async function startFakeUpstream(): Promise<FakeUpstream> {
  const queue: Script[] = [];
  const received: Received[] = [];

  const server = http.createServer(async (req, res) => {
    let raw = '';
    for await (const c of req) raw += c;
    const body = raw ? JSON.parse(raw) : {};
    const path = (req.url ?? '').split('?')[0];
    const entry: Received = { path, headers: req.headers, body };
    received.push(entry);
    res.on('close', () => {
      if (!res.writableEnded) entry.cut = true;
    });
    const s = queue.shift() ?? {};
    if (s.headersDelayMs) await sleep(s.headersDelayMs);
    if (res.destroyed) return;
    const anthropic = path === '/ant/v1/messages';
    if (!anthropic && path !== '/oai/v1/chat/completions') {
      res.writeHead(404).end(JSON.stringify({ error: { message: `no route ${path}` } }));
      return;
    }
    if (s.status && s.status >= 400) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (s.retryAfter) headers['retry-after'] = s.retryAfter;
      const err = anthropic
        ? { type: 'error', error: { type: 'upstream_error', message: s.error ?? 'boom' } }
        : { error: { message: s.error ?? 'boom', type: 'x' } };
      res.writeHead(s.status, headers).end(JSON.stringify(err));
      return;
    }
    const text = s.text ?? `upstream:${lastUser(body)}`;
    const pieces = s.pieces ?? text.match(/\S+\s*/g) ?? [text];
    if (anthropic) {
      const usage = s.usage === undefined ? { input_tokens: 21, output_tokens: 7 } : s.usage;
      const calls = s.toolCalls ?? [];
      const stop = s.finish ?? (calls.length ? 'tool_use' : 'end_turn');
      if (!body.stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        const content = [
          ...(text ? [{ type: 'text', text }] : []),
          ...calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: JSON.parse(c.arguments) })),
        ];
        res.end(
          JSON.stringify({
            id: 'msg_fake',
            type: 'message',
            role: 'assistant',
            model: body.model,
            content,
            stop_reason: stop,
            stop_sequence: null,
            usage,
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const ev = (type: string, data: object) =>
        res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      ev('message_start', {
        message: {
          id: 'msg_fake',
          type: 'message',
          role: 'assistant',
          model: body.model,
          content: [],
          stop_reason: null,
          usage: { ...(usage ?? {}), output_tokens: 1 },
        },
      });
      let block = 0;
      if (text) {
        ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
        for (const [i, p] of pieces.entries()) {
          if (s.breakAfter === i) return void setTimeout(() => res.destroy(), 30);
          if (s.delayMs) await sleep(s.delayMs);
          if (res.destroyed) return;
          ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: p } });
        }
        ev('content_block_stop', { index: block++ });
      }
      for (const c of calls) {
        ev('content_block_start', {
          index: block,
          content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} },
        });
        for (const p of piecesOf(c.arguments, s.argPiece ?? 3))
          ev('content_block_delta', { index: block, delta: { type: 'input_json_delta', partial_json: p } });
        ev('content_block_stop', { index: block++ });
      }
      ev('message_delta', {
        delta: { stop_reason: stop },
        usage: { output_tokens: (usage as any)?.output_tokens ?? 0 },
      });
      ev('message_stop', {});
      res.end();
      return;
    }
    const usage = s.usage === undefined ? { prompt_tokens: 33, completion_tokens: 9, total_tokens: 42 } : s.usage;
    const calls = s.toolCalls ?? [];
    const finish = s.finish ?? (calls.length ? 'tool_calls' : 'stop');
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      const message = {
        role: 'assistant',
        content: text || null,
        ...(calls.length
          ? {
              tool_calls: calls.map((c) => ({
                id: c.id,
                type: 'function',
                function: { name: c.name, arguments: c.arguments },
              })),
            }
          : {}),
      };
      res.end(
        JSON.stringify({
          id: 'c1',
          object: 'chat.completion',
          created: 1,
          model: body.model,
          choices: [{ index: 0, message, finish_reason: finish }],
          ...(usage ? { usage } : {}),
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (o: object) =>
      res.write(
        `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: body.model, ...o })}\n\n`,
      );
    chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
    for (const [i, p] of pieces.entries()) {
      if (s.breakAfter === i) return void setTimeout(() => res.destroy(), 30);
      if (s.delayMs) await sleep(s.delayMs);
      if (res.destroyed) return;
      if (text) chunk({ choices: [{ index: 0, delta: { content: p }, finish_reason: null }] });
    }
    for (const [index, c] of calls.entries()) {
      // The first piece of arguments rides with the id and name, as OpenAI sometimes sends it.
      const [first = '', ...rest] = piecesOf(c.arguments, s.argPiece ?? 3);
      chunk({
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: first } }],
            },
            finish_reason: null,
          },
        ],
      });
      for (const p of rest)
        chunk({
          choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: p } }] }, finish_reason: null }],
        });
    }
    chunk({ choices: [{ index: 0, delta: {}, finish_reason: finish }] });
    if (usage && body.stream_options?.include_usage) chunk({ choices: [], usage });
    res.write('data: [DONE]\n\n');
    res.end();
  });
  // Long, like real servers: a platform that stops must close its idle upstream connections itself.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    openaiBase: `${url}/oai/v1`,
    anthropicBase: `${url}/ant`,
    received,
    script: (...answers) => queue.push(...answers),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
