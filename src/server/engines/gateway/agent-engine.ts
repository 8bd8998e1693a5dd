import { createHash } from 'node:crypto';
import type { GatewayMessage, ToolDefinition } from '../gateway-types.js';
import { streamText, type Backend, type BackendCall, type BackendResult } from './backend.js';
import { finish } from './local-engines.js';
import { execBuilt, quote } from './caller-patterns.js';
import { schemaAnswers } from './schema-work.js';
import type { SchemaTask } from './schema-answers.js';

/**
 * facet-agent: a local model for testing agent loops, every answer a pure function of the request.
 *
 * 1. When the conversation ends with tool results, it answers from them: one line per result,
 *    `<tool name>: <result>` (in JSON when a format is asked, filled from the results' text).
 * 2. Otherwise, with tools offered and tool_choice not none, it calls the tool tool_choice names, else
 *    every tool whose name the last user message contains (in the order they appear there; only the
 *    first when parallel tool calls are off), else with tool_choice required the first tool. The
 *    arguments are built from the tool's parameter schema with values found in the message
 *    (schema-values.ts). Call ids are derived from the request, so a repeated request repeats them.
 * 3. Otherwise it answers the last user message verbatim (facet-echo's rule), or, when a format is
 *    asked, JSON built from the schema with values found in that message (json_object: {"answer": …}).
 */
export function agentEngine(): Backend {
  const generate = async (call: BackendCall): Promise<BackendResult> => {
    const results = trailingResults(call.messages);
    if (results.length > 0)
      return answer(call, answerFromResults(call.messages, results), results.map((r) => r.content).join('\n'));
    const user = lastUserText(call.messages);
    const calls = chooseTools(call, user);
    if (calls.length > 0) {
      const values = await answersFor(
        call,
        calls.map((tool) => ({ schema: tool.parameters, text: user, param: 'tools' })),
      );
      const toolCalls = calls.map((tool, index) => ({
        id: callId(call, user, index, tool.name),
        name: tool.name,
        arguments: JSON.stringify(values[index] ?? {}),
      }));
      return { text: '', toolCalls, stopReason: 'tool_use', usage: null };
    }
    return answer(call, user, user);
  };
  return {
    generate,
    stream: async function* (call) {
      yield* streamText(await generate(call), call.signal, { json: call.outputFormat !== undefined });
    },
  };
}

function lastUserText(messages: GatewayMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === 'user') return messages[i].content;
  return '';
}

/** The tool results after the last assistant turn, if the conversation ends with them. */
function trailingResults(messages: GatewayMessage[]): GatewayMessage[] {
  const out: GatewayMessage[] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i].role === 'tool'; i--) out.unshift(messages[i]);
  return out;
}

function answerFromResults(messages: GatewayMessage[], results: GatewayMessage[]): string {
  const names = new Map<string, string>();
  for (const m of messages) for (const c of m.toolCalls ?? []) names.set(c.id, c.name);
  return results.map((r) => `${r.toolName ?? names.get(r.toolCallId ?? '') ?? 'tool'}: ${r.content}`).join('\n');
}

function chooseTools(call: BackendCall, user: string): ToolDefinition[] {
  const tools = call.tools ?? [];
  const choice = call.toolChoice ?? 'auto';
  if (tools.length === 0 || choice === 'none') return [];
  if (typeof choice === 'object') return tools.filter((t) => t.name === choice.name);
  const lower = user.toLowerCase();
  const named = tools
    .map((t) => ({ t, at: wordIndex(lower, t.name.toLowerCase()) }))
    .filter((x) => x.at >= 0)
    .sort((a, b) => a.at - b.at)
    .map((x) => x.t);
  const chosen = named.length > 0 ? named : choice === 'required' ? [tools[0]] : [];
  return call.parallelToolCalls === false ? chosen.slice(0, 1) : chosen;
}

/** Where a tool's name appears in the text as a whole word (not inside a longer name), or -1. */
function wordIndex(text: string, name: string): number {
  // RE2, so a caller's tool name cannot make the search backtrack; group 1 is the boundary before it.
  const m = execBuilt(`(^|[^\\w-])${quote(name)}(?:$|[^\\w-])`, text);
  return m ? m.index + m[1].length : -1;
}

function callId(call: BackendCall, user: string, index: number, name: string): string {
  const h = createHash('sha256')
    .update(JSON.stringify([call.messages.length, user, index, name]))
    .digest('hex');
  return `call_${h.slice(0, 24)}`;
}

/** Values for the schemas, written off the event loop under the call's max tokens (schema-work.ts). */
function answersFor(call: BackendCall, tasks: SchemaTask[]): Promise<unknown[]> {
  const owner = call.scope?.apiKeyId ?? (call.scope ? `user:${call.scope.userId}` : undefined);
  return schemaAnswers({ tasks, maxTokens: call.maxTokens }, { owner, signal: call.signal });
}

/** A text answer, or with a format asked, JSON filled from `source`; stop sequences and max tokens apply. */
async function answer(call: BackendCall, text: string, source: string): Promise<BackendResult> {
  const format = call.outputFormat;
  if (format?.type === 'json_schema') {
    const [value] = await answersFor(call, [{ schema: format.schema, text: source, param: 'format' }]);
    return finish(JSON.stringify(value), call);
  }
  if (format?.type === 'json_object') return finish(JSON.stringify({ answer: text }), call);
  return finish(text, call);
}
