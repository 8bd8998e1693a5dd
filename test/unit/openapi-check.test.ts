import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/contract/index.js';
import { buildOpenApi } from '../../src/contract/openapi.js';
import type { GenerateResult } from '../../src/server/engines/gateway-types.js';
import type { JournalEntry } from '../../src/server/http/response-journal.js';
import { chatStreamWriter } from '../../src/server/services/model-api/chat-completions.js';
import { messageFor, messagesStreamWriter } from '../../src/server/services/model-api/messages.js';
import { responseFor } from '../../src/server/services/model-api/responses.js';
import { responsesStreamWriter } from '../../src/server/services/model-api/responses-stream.js';
import { frame } from '../../src/server/streams/sse.js';
import { createOpenApiChecker, type OpenApiDocument } from '../helpers/openapi-check.js';

// The document as a client gets it: generated, then through JSON, as /openapi.json serves it.
const served = JSON.parse(
  JSON.stringify(buildOpenApi(ROUTES, { version: '0.0.0', serverUrl: 'http://127.0.0.1:1' })),
) as OpenApiDocument;
const { check } = createOpenApiChecker(served);

const result: GenerateResult = {
  model: 'facet-echo',
  text: 'alpha beta',
  stopReason: 'end',
  usage: { inputTokens: 5, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, webSearches: 1 },
  costUsd: 0.0001,
};

function json(method: string, url: string, status: number, body: unknown): JournalEntry {
  const text = JSON.stringify(body);
  return {
    method,
    url,
    status,
    contentType: 'application/json; charset=utf-8',
    bytes: Buffer.byteLength(text),
    body: text,
    cut: false,
  };
}
function sse(url: string, text: string, method = 'POST'): JournalEntry {
  return {
    method,
    url,
    status: 200,
    contentType: 'text/event-stream; charset=utf-8',
    bytes: Buffer.byteLength(text),
    body: text,
    cut: false,
  };
}

describe('checking responses against the served OpenAPI document', () => {
  it('accepts a Responses object as the route sends it, and fails one with a field the schema lacks', () => {
    const body = responseFor({ model: 'facet-echo', input: 'alpha beta' }, result, 1);
    expect(check(json('POST', '/api/v1/responses', 200, body))).toEqual([]);
    const problems = check(json('POST', '/api/v1/responses', 200, { ...body, service_tier: 'default' }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/api\.responses\.create.*additional properties 'service_tier'/);
  });

  it('accepts a message with web search usage', () => {
    const body = messageFor({ model: 'facet-echo', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }, result);
    expect(check(json('POST', '/api/v1/messages', 200, body))).toEqual([]);
  });

  it('accepts each model surface stream event by event, and names an event that breaks its schema', () => {
    const opening = { inputTokens: 7, cacheReadTokens: 0, cacheWriteTokens: 0 };
    const responses = responsesStreamWriter({ model: 'facet-echo', input: 'alpha beta' }, 1);
    const r =
      responses.start(opening) +
      responses.delta('alpha ') +
      responses.delta('beta') +
      responses.done(result) +
      responses.error({ error: { message: 'x', code: 'server_error' } });
    expect(check(sse('/api/v1/responses', r))).toEqual([]);

    const chat = chatStreamWriter('facet-echo', 1, true);
    expect(check(sse('/api/v1/chat/completions', chat.start(opening) + chat.delta('hi') + chat.done(result)))).toEqual(
      [],
    );
    expect(
      check(
        sse(
          '/api/v1/chat/completions',
          chat.start(opening) + chat.error({ error: { message: 'boom', type: 'server_error', code: null } }),
        ),
      ),
    ).toEqual([]);

    const messages = messagesStreamWriter({
      model: 'facet-echo',
      max_tokens: 5,
      messages: [{ role: 'user', content: 'x' }],
    });
    const m =
      messages.start(opening) +
      messages.delta('hi') +
      messages.done(result) +
      messages.error({ type: 'error', error: { type: 'api_error', message: 'x' } });
    expect(check(sse('/api/v1/messages', m))).toEqual([]);

    const extra =
      'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":3,"item_id":"m","output_index":0,"content_index":0,"delta":"a","logprobs":[],"obfuscation":"x"}\n\n';
    expect(check(sse('/api/v1/responses', extra))).toEqual([
      expect.stringMatching(/event response\.output_text\.delta: .*'obfuscation'/),
    ]);
    expect(check(sse('/api/v1/messages', 'event: thinking\ndata: {}\n\n'))).toEqual([
      expect.stringMatching(/event thinking is not described/),
    ]);
    expect(check(sse('/api/v1/chat/completions', 'data: [DONE]\n\n'))).toEqual([]);
    expect(check(sse('/api/v1/chat/completions', 'data: [NOT DONE]\n\n'))).toEqual([
      expect.stringMatching(/event \(unnamed\)/),
    ]);
  });

  it('accepts the conversation stream with its offsets as ids, and refuses an event it does not list', () => {
    const url = '/v2/conversations/stream/abc?offset=0';
    const text =
      ': stream open\n\n' +
      frame({ seq: 0, type: 'message', data: { content: 'Hi' } }) +
      ': heartbeat\n\n' +
      frame({ seq: 1, type: 'done', data: {} });
    expect(check(sse(url, text, 'GET'))).toEqual([]);
    expect(check(sse(url, 'id: 1\nevent: progress\ndata: {}\n\n', 'GET'))).toEqual([
      expect.stringMatching(/event progress is not described/),
    ]);
    expect(check(sse(url, frame({ seq: 0, type: 'message', data: { content: 'Hi', extra: 1 } }), 'GET'))).toEqual([
      expect.stringMatching(/'extra'/),
    ]);
  });

  it('an empty finished stream is refused; one that ends asking to reconnect (a shutdown) is not', () => {
    const url = '/v2/conversations/stream/abc?offset=0';
    expect(check(sse(url, ': stream open\n\n', 'GET'))).toEqual([expect.stringMatching(/no event/)]);
    expect(check(sse(url, ': stream open\n\nretry: 1000\n\n', 'GET'))).toEqual([]);
  });

  it('holds errors to the family shape, and unknown endpoints to a 404', () => {
    expect(
      check(
        json('POST', '/api/v1/messages', 413, { type: 'error', error: { type: 'request_too_large', message: 'big' } }),
      ),
    ).toEqual([]);
    expect(check(json('POST', '/api/v1/messages', 413, { detail: 'big' }))).toEqual([
      expect.stringMatching(/api\.messages\.create/),
    ]);
    expect(
      check(json('GET', '/v2/nothing', 404, { status: 'error', code: 'NOT_FOUND', message: 'x', request_id: 'r' })),
    ).toEqual([]);
    expect(
      check(
        json('GET', '/v2/nothing', 401, {
          status: 'error',
          code: 'MISSING_AUTHORIZATION',
          message: 'x',
          request_id: 'r',
        }),
      ),
    ).toEqual([]);
    expect(check(json('GET', '/v2/nothing', 200, {}))).toEqual([expect.stringMatching(/not in the document/)]);
    expect(check(json('GET', '/v2/chat', 500, {}))).toEqual([expect.stringMatching(/no GET operation/)]);
    expect(check({ ...json('POST', '/api/v1/messages', 200, {}), contentType: 'text/html' })).toEqual([
      expect.stringMatching(/content type text\/html is not described/),
    ]);
  });
});
