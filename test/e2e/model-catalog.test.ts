import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.js';
import { okJson, runCli, startPlatform, tempDir, type Platform } from '../helpers/platform.js';

let p: Platform;
let up: FakeUpstream;
const dir = tempDir('catalog');
const file = path.join(dir, 'catalog.json');

const model = (over: Record<string, unknown>) => ({
  provider: 'ollama',
  api: 'openai',
  model_kind: 'chat',
  created: 1767225600,
  context_window: 8192,
  max_output_tokens: 2048,
  surfaces: ['responses', 'chat', 'messages'],
  pricing: { input: 0, output: 0 },
  enabled: true,
  listed: true,
  deleted: false,
  ...over,
});

beforeAll(async () => {
  up = await startFakeUpstream();
  writeFileSync(
    file,
    JSON.stringify({
      version: 1,
      models: [
        model({ id: 'house-llama', upstream_model: 'llama3.2:1b' }),
        model({ id: 'retired', deleted: true }),
        model({ id: 'unpriced', pricing: null }),
        model({ id: 'off', enabled: false }),
      ],
    }),
  );
  // the key comes from the environment, as the help text advises
  p = await startPlatform({
    args: ['--catalog', file, '--upstream-openai-base-url', up.openaiBase, '--key-concurrency', '1'],
    env: { FACET_UPSTREAM_OPENAI_KEY: 'sk-upstream-secret' },
  });
});
afterAll(async () => {
  p?.cleanup();
  await up?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('facet serve --catalog', () => {
  it('replaces the shipped catalog, offers only enabled, listed, non-deleted, priced models, and sends upstream names', async () => {
    const client = new OpenAI({ apiKey: p.boot.api_key, baseURL: `${p.url}/api/v1`, maxRetries: 0 });
    const ids: string[] = [];
    for await (const m of client.models.list()) ids.push(m.id);
    expect(ids).toEqual(['house-llama']);
    await expect(
      client.chat.completions.create({ model: 'facet-echo', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({ status: 404 });

    up.script({ text: 'llama says hi' });
    const r = await client.chat.completions.create({
      model: 'house-llama',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(r.model).toBe('house-llama');
    expect(r.choices[0].message.content).toBe('llama says hi');
    const sent = up.received.at(-1)!;
    expect(sent.body.model).toBe('llama3.2:1b');
    expect(sent.headers.authorization).toBe('Bearer sk-upstream-secret');

    const admin = okJson(await p.cli(['admin', 'models', 'list', '--json'])) as Array<{ id: string; offered: boolean }>;
    expect(Object.fromEntries(admin.map((m) => [m.id, m.offered]))).toEqual({
      'house-llama': true,
      retired: false,
      unpriced: false,
      off: false,
    });
  });

  it('limits concurrent calls per key: 429 with Retry-After in the family shape, free again afterwards', async () => {
    up.script({ pieces: ['slow ', 'reply ', 'here'], delayMs: 300 });
    const body = (stream: boolean) =>
      JSON.stringify({ model: 'house-llama', stream, messages: [{ role: 'user', content: 'x' }] });
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${p.boot.api_key}` };
    const first = await p.fetch('/api/v1/chat/completions', { method: 'POST', headers, body: body(true) });
    expect(first.status).toBe(200);
    const second = await p.fetch('/api/v1/messages', {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: 'house-llama', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe('1');
    expect(await second.json()).toMatchObject({
      type: 'error',
      error: { type: 'rate_limit_error', message: expect.stringMatching(/concurrent/) },
    });
    expect(await first.text()).toContain('data: [DONE]');
    const third = await p.fetch('/api/v1/chat/completions', { method: 'POST', headers, body: body(false) });
    expect(third.status).toBe(200);
  });

  it('stops promptly after upstream calls: idle upstream connections do not hold the process', async () => {
    up.script({ text: 'bye' });
    const r = await p.fetch('/api/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${p.boot.api_key}` },
      body: JSON.stringify({ model: 'house-llama', messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(r.status).toBe(200);
    const started = Date.now();
    await p.stop();
    // the upstream keeps idle connections for 60 s; a clean stop does not wait for them
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('refuses to start on a catalog that is not valid, naming the problem', async () => {
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ version: 1, models: [model({ id: 'x', api: 'carrier-pigeon' })] }));
    const config = tempDir('config');
    const r = await runCli(config, ['serve', '--memory', '--port', '0', '--no-profile', '--catalog', bad], {
      timeout: 20_000,
    });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/catalog .*bad\.json is not valid/);
    expect(r.stderr).toMatch(/api/);
    rmSync(config, { recursive: true, force: true });
  });
});
