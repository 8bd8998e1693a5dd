import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, okJson, startPlatform, type Platform } from '../helpers/platform.js';

/**
 * A fresh platform with no upstream: a model that needs one is refused with a non-retryable 400
 * that names the option configuring it (a 503 made SDKs retry in vain), on every surface; and a
 * condition's error code has one spelling everywhere (KEY_FROZEN, not key_frozen on /api/v1).
 */

let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
});
afterAll(() => p?.cleanup());

const post = (path: string, body: object, key = p.boot.api_key) =>
  p.fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify(body),
  });

describe('a model whose upstream nobody configured', () => {
  it('facet llm fails at once (exit 1, no retries) and says which option configures it', async () => {
    const r = await p.cli(['llm', 'corvid-small', 'hello']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(
      /start the platform with --upstream-anthropic-base-url URL.*code upstream_not_configured, HTTP 400/,
    );
  });

  it('is a 400 in each family: Chat Completions, Responses and Messages', async () => {
    const chat = await post('/api/v1/chat/completions', {
      model: 'lumen-flash',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(chat.status).toBe(400);
    expect((await chat.json()).error).toMatchObject({
      code: 'upstream_not_configured',
      type: 'invalid_request_error',
      message: expect.stringMatching(/--upstream-openai-base-url/),
    });
    const responses = await post('/api/v1/responses', { model: 'lumen-flash', input: 'x' });
    expect(responses.status).toBe(400);
    const messages = await post('/api/v1/messages', {
      model: 'corvid-small',
      max_tokens: 5,
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(messages.status).toBe(400);
    expect((await messages.json()).error).toMatchObject({
      type: 'invalid_request_error',
      message: expect.stringMatching(/--upstream-anthropic-base-url/),
    });
  });
});

describe('one spelling per condition', () => {
  it('a frozen key is KEY_FROZEN on /v2 and on /api/v1 alike', async () => {
    const key = okJson(await p.cli(['keys', 'create', '--name', 'frozen', '--json']));
    ok(await p.cli(['admin', 'keys', 'freeze', key.id]));
    const v1 = await post(
      '/api/v1/chat/completions',
      { model: 'facet-echo', messages: [{ role: 'user', content: 'x' }] },
      key.key,
    );
    expect(v1.status).toBe(403);
    expect((await v1.json()).error.code).toBe('KEY_FROZEN');
    const v2 = await p.fetch('/v2/livedocs', { headers: { Authorization: `Bearer ${key.key}` } });
    expect(v2.status).toBe(403);
    expect((await v2.json()).code).toBe('KEY_FROZEN');
  });
});
