import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, expect, it } from 'vitest';
import { startPlatform, tempDir, type Platform } from '../helpers/platform.js';
import { createTestDatabase, describePostgres, dropTestDatabases } from '../helpers/postgres.js';

/**
 * Issue 27: stored responses and threads live in the shared database, so two `facet serve`
 * instances on one PostgreSQL serve each other's turns, and a restart loses none.
 */
describePostgres('stored responses and threads across two instances on one PostgreSQL', () => {
  const platforms: Platform[] = [];
  afterAll(async () => {
    for (const p of platforms) p.cleanup();
    await dropTestDatabases();
  });

  it('a response stored through A is read, listed, continued and deleted through B; a thread created on B continues on A; both survive a restart', async () => {
    const url = await createTestDatabase();
    const files = tempDir('files');
    for (let i = 0; i < 2; i++) platforms.push(await startPlatform({ databaseUrl: url, args: ['--files-dir', files] }));
    const [a, b] = platforms;
    const key = a.boot.api_key!;
    const openai = (p: Platform) =>
      new OpenAI({ apiKey: key, baseURL: `${p.url}/api/v1`, maxRetries: 0, timeout: 20_000 });
    const anthropic = (p: Platform) =>
      new Anthropic({ apiKey: key, baseURL: `${p.url}/api`, maxRetries: 0, timeout: 20_000 });

    const first = await openai(a).responses.create({ model: 'facet-echo', input: 'stored on A' });
    expect((await openai(b).responses.retrieve(first.id)).output_text).toBe('stored on A');
    const items = await openai(b).responses.inputItems.list(first.id);
    expect(items.data).toHaveLength(1);
    const second = await openai(b).responses.create({
      model: 'facet-echo',
      input: 'continued on B',
      previous_response_id: first.id,
    });
    expect(second.previous_response_id).toBe(first.id);

    const tools = [
      {
        name: 'get_weather',
        description: 'Weather',
        input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } },
      },
    ];
    const created = await anthropic(b).beta.messages.create({
      model: 'facet-agent',
      max_tokens: 256,
      tools,
      messages: [{ role: 'user', content: 'Use get_weather for city: Rome' }],
      thread: { type: 'create' },
    } as never);
    const call = (created as Anthropic.Beta.BetaMessage).content.find((c) => c.type === 'tool_use')!;
    const raw = await a.fetch('/api/v1/messages', {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'facet-agent',
        max_tokens: 256,
        messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'warm' }] }],
        thread: { type: 'continue', previous_message_id: (created as Anthropic.Beta.BetaMessage).id },
      }),
    });
    expect(raw.status).toBe(200);
    const answered = (await raw.json()) as { id: string; content: unknown[] };
    expect(answered.content).toEqual([{ type: 'text', text: 'get_weather: warm' }]);

    platforms[0] = await a.restart();
    expect((await openai(platforms[0]).responses.retrieve(second.id)).output_text).toBe('continued on B');
    await openai(platforms[0]).responses.delete(first.id);
    await expect(openai(b).responses.retrieve(first.id)).rejects.toMatchObject({ status: 404 });
  }, 90_000);
});
