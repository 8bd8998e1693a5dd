import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/server/engines/gateway/catalog.js';
import { ModelDirectory } from '../../src/server/engines/gateway/directory.js';
import { createGateway } from '../../src/server/engines/gateway/gateway.js';
import { countPromptTokens, countReplyTokens } from '../../src/server/engines/gateway/tokenizer.js';
import { openStore, type Store } from '../../src/server/store/store.js';
import type { GatewayStreamEvent, GenerateRequest, ModelGateway } from '../../src/server/engines/gateway-types.js';

/** Metering of tool use (issue 16): definitions and results are input, call arguments output, whatever the transport. */
let store: Store;
let gateway: ModelGateway & { close(): Promise<void> };
const scope = { apiKeyId: 'key_tools', userId: 'usr_test', operation: 'unit' };

beforeAll(async () => {
  store = await openStore({ dataDir: null });
  const ctx = { db: store.db, now: () => new Date('2026-01-01T00:00:00Z') };
  gateway = createGateway({ ctx, directory: new ModelDirectory(loadCatalog(), store.db), upstreams: {} });
});
afterAll(async () => {
  await gateway?.close();
  await store?.close();
});

const tools = [
  {
    name: 'lookup',
    description: 'Looks a word up in the dictionary',
    parameters: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
  },
];
const ask: GenerateRequest = {
  model: 'facet-agent',
  messages: [{ role: 'user', content: 'lookup word: serendipity' }],
  tools,
  scope,
};

async function drain(events: AsyncIterable<GatewayStreamEvent>, stopAfter?: (e: GatewayStreamEvent) => boolean) {
  for await (const e of events) if (stopAfter?.(e)) break;
}

const records = () =>
  store.db.selectFrom('usage_records').select(['input_tokens', 'output_tokens']).orderBy('id').execute();

describe('metering tool use', () => {
  it('counts tool definitions and tool results as input, tool-call names and arguments as output', async () => {
    const r = await gateway.generate(ask);
    expect(r.toolCalls).toEqual([
      { id: expect.stringMatching(/^call_/), name: 'lookup', arguments: '{"word":"serendipity"}' },
    ]);
    expect(r.stopReason).toBe('tool_use');
    const bare = await countPromptTokens({ messages: ask.messages });
    expect(r.usage.inputTokens).toBe(await countPromptTokens(ask));
    expect(r.usage.inputTokens).toBeGreaterThan(bare + 15);
    expect(r.usage.outputTokens).toBe(await countReplyTokens('', r.toolCalls));
    expect(r.usage.outputTokens).toBeGreaterThan(5);

    const withResult: GenerateRequest = {
      ...ask,
      messages: [
        ...ask.messages,
        { role: 'assistant', content: '', toolCalls: r.toolCalls },
        { role: 'tool', content: 'a happy accident of discovery', toolCallId: r.toolCalls![0].id },
      ],
    };
    const answer = await gateway.generate(withResult);
    expect(answer.text).toBe('lookup: a happy accident of discovery');
    expect(answer.usage.inputTokens).toBeGreaterThan(r.usage.inputTokens + 10);
    expect(await gateway.countInputTokens!(withResult)).toBe(answer.usage.inputTokens);
  });

  it('a plain call and a streamed call record the same usage; a cut stream records what was produced', async () => {
    await store.db.deleteFrom('usage_records').execute();
    const plain = await gateway.generate(ask);
    await drain(gateway.stream(ask));
    const abort = new AbortController();
    // Cut after the call opened and its first piece of arguments arrived.
    await drain(gateway.stream({ ...ask, signal: abort.signal }), (e) => {
      if (e.type === 'tool_arguments') abort.abort();
      return e.type === 'tool_arguments';
    });
    const rows = await records();
    expect(rows).toHaveLength(3);
    expect(rows[1]).toEqual(rows[0]);
    expect(rows[0]).toMatchObject({ input_tokens: plain.usage.inputTokens, output_tokens: plain.usage.outputTokens });
    // Same prompt; output: the name and the one piece of arguments produced.
    expect(rows[2].input_tokens).toBe(rows[0].input_tokens);
    expect(rows[2].output_tokens).toBe(await countReplyTokens('', [{ name: 'lookup', arguments: '{"word"' }]));
  });

  it('refuses tools on a model that cannot use them, and a forced choice of an unknown tool', async () => {
    await expect(gateway.generate({ ...ask, model: 'facet-echo' })).rejects.toMatchObject({
      status: 400,
      code: 'tools_not_supported',
    });
    // Issue 41: earlier tool turns with no tools offered now are a conversation to continue, not a
    // use of tools: the local model answers it (an orphan result is still refused, below).
    const continued = await gateway.generate({
      ...ask,
      model: 'facet-echo',
      tools: undefined,
      messages: [
        { role: 'user', content: 'look it up' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'lookup', arguments: '{}' }] },
        { role: 'tool', content: 'x', toolCallId: 'c' },
        { role: 'user', content: 'thanks' },
      ],
    });
    expect(continued.text).toBe('thanks');
    await expect(gateway.generate({ ...ask, toolChoice: { name: 'other' } })).rejects.toMatchObject({
      status: 400,
      code: 'invalid_parameter',
    });
    await expect(
      gateway.generate({ ...ask, model: 'facet-grounded', tools: undefined, outputFormat: { type: 'json_object' } }),
    ).rejects.toMatchObject({ code: 'structured_output_not_supported' });
    // A result must answer a call made earlier in the conversation.
    const orphan = {
      ...ask,
      messages: [...ask.messages, { role: 'tool' as const, content: 'x', toolCallId: 'call_nowhere' }],
    };
    await expect(gateway.generate(orphan)).rejects.toMatchObject({
      status: 400,
      code: 'invalid_parameter',
      extra: { param: 'messages' },
    });
  });
});
