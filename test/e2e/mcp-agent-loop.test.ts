import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type Platform } from '../helpers/platform.js';
import { connect, textOf, type Connected } from '../helpers/mcp-clients.js';

/**
 * Issue 40: an agent loop, offline. The openai SDK talks to facet serve's /api/v1 with the local
 * model facet-agent (it calls the tool a message names, with arguments from the message, then
 * answers from the tool results); the MCP tools are offered to it as function tools, and every
 * call it makes is carried out through the MCP client, until it answers.
 */
let p: Platform;
let mcp: Connected;
beforeAll(async () => {
  p = await startPlatform();
  mcp = await connect(p, 'http', p.boot.api_key);
}, 60_000);
afterAll(async () => {
  await mcp?.close();
  p?.cleanup();
});

describe('an agent with the MCP tools as function tools', () => {
  it('answers a question by calling livedocs_ask', async () => {
    const doc = (await mcp.client.callTool({
      name: 'livedocs_create',
      arguments: { name: 'Alpine lakes' },
    })) as CallToolResult;
    const id = (doc.structuredContent as { id: string }).id;
    await mcp.client.callTool({
      name: 'livedocs_add_text',
      arguments: {
        livedoc_id: id,
        title: 'Lake Geneva',
        content: 'Lake Geneva is 310 metres deep at its deepest point, between Evian and Lausanne.',
      },
    });

    const { tools } = await mcp.client.listTools();
    const functions: ChatCompletionTool[] = tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.inputSchema as Record<string, unknown> },
    }));
    const openai = new OpenAI({ baseURL: `${p.url}/api/v1`, apiKey: p.boot.api_key, maxRetries: 0 });
    const messages: ChatCompletionMessageParam[] = [
      {
        role: 'user',
        content: `Use livedocs_ask with livedoc_id: ${id} and question: "How deep is Lake Geneva?"`,
      },
    ];
    const calls: Array<{ name: string; args: unknown }> = [];
    let answer: string | null = null;
    for (let step = 0; step < 4 && answer === null; step++) {
      const res = await openai.chat.completions.create({ model: 'facet-agent', messages, tools: functions });
      const msg = res.choices[0].message;
      messages.push(msg);
      if (!msg.tool_calls?.length) {
        answer = msg.content;
        break;
      }
      for (const tc of msg.tool_calls) {
        if (tc.type !== 'function') continue;
        const args = JSON.parse(tc.function.arguments);
        calls.push({ name: tc.function.name, args });
        const result = (await mcp.client.callTool({ name: tc.function.name, arguments: args })) as CallToolResult;
        messages.push({ role: 'tool', tool_call_id: tc.id, content: textOf(result) });
      }
    }
    expect(calls).toEqual([{ name: 'livedocs_ask', args: { livedoc_id: id, question: 'How deep is Lake Geneva?' } }]);
    expect(answer).toMatch(/^livedocs_ask: /);
    expect(answer).toMatch(/310 metres deep/);
    expect(answer).toMatch(/\[1\] Lake Geneva/);
  }, 60_000);
});
