import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/server/engines/gateway/catalog.js';
import { ModelDirectory } from '../../src/server/engines/gateway/directory.js';
import { createGateway } from '../../src/server/engines/gateway/gateway.js';
import { groundedEngine } from '../../src/server/engines/gateway/local-engines.js';
import { countTokens } from '../../src/server/engines/gateway/tokenizer.js';
import { openStore, type Store } from '../../src/server/store/store.js';
import type { ModelGateway } from '../../src/server/engines/gateway-types.js';

let store: Store;
let gateway: ModelGateway & { close(): Promise<void> };
const scope = { apiKeyId: 'key_test', userId: 'usr_test', operation: 'unit' };

beforeAll(async () => {
  store = await openStore({ dataDir: null });
  const ctx = { db: store.db, now: () => new Date('2026-01-01T00:00:00Z') };
  gateway = createGateway({
    ctx,
    directory: new ModelDirectory(loadCatalog(), store.db),
    upstreams: {},
    limits: { perKeyConcurrency: 1, totalConcurrency: 2 },
  });
});
afterAll(async () => {
  await gateway?.close();
  await store?.close();
});

describe('the gateway with local models', () => {
  it('echo is a pure function of the request, metered with real token counts', async () => {
    const a = await gateway.generate({
      model: 'facet-echo',
      messages: [{ role: 'user', content: 'same input' }],
      scope,
    });
    const b = await gateway.generate({
      model: 'facet-echo',
      messages: [{ role: 'user', content: 'same input' }],
      scope,
    });
    expect(a.text).toBe('same input');
    expect(b).toEqual(a);
    expect(a.usage.outputTokens).toBe(await countTokens('same input'));
    const rows = await store.db.selectFrom('usage_records').selectAll().execute();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ model: 'facet-echo', operation: 'unit', api_key_id: 'key_test', output_tokens: 2 });
  });

  it('grounds answers on the passages given, citing them', async () => {
    const r = await gateway.generate({
      messages: [{ role: 'user', content: 'When was the lighthouse built?' }],
      context: [
        { id: 'a', title: 'Harbour', content: 'The harbour is busy. Ferries leave hourly.' },
        {
          id: 'b',
          title: 'Lighthouse',
          content: 'The lighthouse was built in 1871. It is white.',
          link: 'https://example.test/l',
        },
      ],
      scope,
    });
    expect(r.model).toBe('facet-grounded');
    expect(r.text).toContain('The lighthouse was built in 1871. [2]');
    // the caller brought the passages, so the caller lists the sources
    expect(r.text).not.toContain('Sources:');
  });

  it('grounds a plain call on the caller through the grounding source, and names its sources', async () => {
    const seen: string[] = [];
    const engine = groundedEngine(async (query, who) => {
      seen.push(`${who.userId}:${query}`);
      return [
        { id: '1', title: 'Lighthouse', content: 'The lighthouse was built in 1871.', link: 'https://example.test/l' },
      ];
    });
    const r = await engine.generate({
      model: 'facet-grounded',
      messages: [{ role: 'user', content: 'When was the lighthouse built?' }],
      maxTokens: 500,
      scope,
    });
    expect(seen).toEqual([`${scope.userId}:When was the lighthouse built?`]);
    expect(r.text).toContain('The lighthouse was built in 1871. [1]');
    expect(r.text).toContain('Sources:\n[1] Lighthouse (https://example.test/l)');
    const empty = await groundedEngine(async () => []).generate({
      model: 'facet-grounded',
      messages: [{ role: 'user', content: 'anything' }],
      maxTokens: 500,
      scope,
    });
    expect(empty.text).toMatch(/found nothing/);
  });

  it('refuses a second concurrent call of one key with 429 and Retry-After', async () => {
    const first = gateway
      .stream({ model: 'facet-echo', messages: [{ role: 'user', content: 'a b c' }], scope })
      [Symbol.asyncIterator]();
    await first.next(); // holds the key's only slot
    await expect(
      gateway.generate({ model: 'facet-echo', messages: [{ role: 'user', content: 'x' }], scope }),
    ).rejects.toMatchObject({ status: 429, headers: { 'retry-after': '1' } });
    await first.return?.();
    await expect(
      gateway.generate({ model: 'facet-echo', messages: [{ role: 'user', content: 'x' }], scope }),
    ).resolves.toMatchObject({ text: 'x' });
  });

  it('meters a stream cut short for what it produced', async () => {
    const before = (await store.db.selectFrom('usage_records').selectAll().execute()).length;
    const it = gateway
      .stream({
        model: 'facet-echo',
        messages: [{ role: 'user', content: 'one two three four' }],
        scope,
        promptUsageFirst: true,
      })
      [Symbol.asyncIterator]();
    expect((await it.next()).value).toMatchObject({ type: 'start', usage: { inputTokens: 10 } });
    expect((await it.next()).value).toMatchObject({ type: 'delta', text: 'one' });
    await it.return?.();
    const rows = await store.db.selectFrom('usage_records').selectAll().orderBy('id').execute();
    expect(rows.length).toBe(before + 1);
    expect(rows.at(-1)!.output_tokens).toBe(1);
  });

  it('refuses an unconfigured upstream with a non-retryable 400 naming the option, and a prompt over the context window', async () => {
    await expect(
      gateway.generate({ model: 'corvid-small', messages: [{ role: 'user', content: 'x' }], scope }),
    ).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/start the platform with --upstream-anthropic-base-url URL/),
      code: 'upstream_not_configured',
      headers: { 'x-should-retry': 'false' },
    });
    const huge = 'word '.repeat(140_000);
    await expect(
      gateway.generate({ model: 'facet-echo', messages: [{ role: 'user', content: huge }], scope }),
    ).rejects.toMatchObject({ status: 400, code: 'context_length_exceeded' });
  });
});

describe('the context window', () => {
  const huge = 'word '.repeat(140_000);
  const ask = (surface: 'chat' | 'responses' | 'messages', content: string, maxTokens?: number) =>
    gateway.generate({ model: 'facet-echo', surface, messages: [{ role: 'user', content }], maxTokens, scope });

  it('refuses a prompt over the window in each family’s words, and gives the slot back', async () => {
    const prompt = 3 + 3 + (await countTokens(huge));
    await expect(ask('chat', huge)).rejects.toMatchObject({
      status: 400,
      code: 'context_length_exceeded',
      message: `This model's maximum context length is 131072 tokens. However, your messages resulted in ${prompt} tokens. Please reduce the length of the messages.`,
      extra: { param: 'messages' },
    });
    await expect(ask('responses', huge, 100)).rejects.toMatchObject({
      message: `This model's maximum context length is 131072 tokens. However, you requested ${prompt + 100} tokens (${prompt} in the messages, 100 in the completion). Please reduce the length of the messages or completion.`,
      extra: { param: 'input' },
    });
    await expect(ask('messages', huge, 100)).rejects.toMatchObject({
      status: 400,
      message: `prompt is too long: ${prompt} tokens > 131072 maximum`,
    });
    // The key's one slot (perKeyConcurrency 1) was released by each refusal.
    await expect(ask('chat', 'still here')).resolves.toMatchObject({ text: 'still here' });
  });

  it('refuses max tokens the prompt leaves no room for, and shrinks the default budget instead of failing', async () => {
    const near = 'word '.repeat(130_000);
    const prompt = 3 + 3 + (await countTokens(near));
    const room = 131072 - prompt;
    expect(room).toBeGreaterThan(0);
    expect(room).toBeLessThan(4096);
    await expect(ask('messages', near, 4000)).rejects.toMatchObject({
      message: `input length and \`max_tokens\` exceed context limit: ${prompt} + 4000 > 131072, decrease input length or \`max_tokens\` and try again`,
    });
    const r = await ask('chat', near);
    expect(r.stopReason).toBe('max_tokens');
    expect(r.usage).toMatchObject({ inputTokens: prompt, outputTokens: room });
  });
});
