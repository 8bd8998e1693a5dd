import type { z } from 'zod';
import type { ResponsesRequest } from '../../../contract/model-api-responses.js';
import type {
  GatewayMessage,
  GenerateRequest,
  MeterScope,
  OutputFormat,
  ToolChoice,
  ToolDefinition,
} from '../../engines/gateway-types.js';
import { HttpError } from '../../errors.js';
import { joinSystem, parametersOf, textOf, toolCallOf, toolOutputText } from './content.js';

/** A Responses request made into the gateway's request: its input items, tools, tool choice and output format. */

export type ResponsesBody = z.infer<typeof ResponsesRequest>;
type Body = ResponsesBody;
type Item = Body['input'] extends string | (infer I)[] ? I : never;
const TEXT_TYPES = ['input_text', 'output_text', 'text'] as const;

const invalid = (message: string, param: string) =>
  new HttpError('invalid_parameter', message, { status: 400, extra: { param } });
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Responses -> gateway: instructions and system/developer items become the system text;
 * function_call items join the assistant turn before them as its tool calls, function_call_output
 * items become tool results.
 */
export function responsesToGateway(body: Body, scope: MeterScope): GenerateRequest {
  const system: Array<string | null | undefined> = [body.instructions];
  const messages: GatewayMessage[] = [];
  if (typeof body.input === 'string') messages.push({ role: 'user', content: body.input });
  else body.input.forEach((item, i) => inputItem(item, `input[${i}]`, system, messages));
  return {
    model: body.model,
    system: joinSystem(system),
    messages,
    maxTokens: body.max_output_tokens ?? undefined,
    temperature: body.temperature ?? undefined,
    tools: functionTools(body),
    toolChoice: toolChoice(body.tool_choice),
    parallelToolCalls: body.parallel_tool_calls ?? undefined,
    outputFormat: outputFormat(body),
    surface: 'responses',
    scope,
  };
}

function inputItem(
  item: Item,
  where: string,
  system: Array<string | null | undefined>,
  messages: GatewayMessage[],
): void {
  const it = item as Item & { call_id?: unknown; name?: unknown; arguments?: unknown; output?: unknown };
  if (it.type === 'function_call') {
    if (typeof it.call_id !== 'string' || typeof it.name !== 'string' || typeof it.arguments !== 'string') {
      throw invalid(`${where}: a function_call item needs call_id, name and arguments (strings)`, where);
    }
    const call = toolCallOf(it.call_id, it.name, it.arguments, where);
    const last = messages.at(-1);
    // Parallel calls arrive as consecutive items: one assistant turn holds them all.
    if (last?.role === 'assistant') last.toolCalls = [...(last.toolCalls ?? []), call];
    else messages.push({ role: 'assistant', content: '', toolCalls: [call] });
    return;
  }
  if (it.type === 'function_call_output') {
    if (typeof it.call_id !== 'string') throw invalid(`${where}: a function_call_output item needs call_id`, where);
    const output = toolOutputText(it.output, `${where}.output`, TEXT_TYPES);
    messages.push({ role: 'tool', content: output, toolCallId: it.call_id });
    return;
  }
  if ((it.type && it.type !== 'message') || !it.role) {
    throw invalid(
      `${where}: only message, function_call and function_call_output items are supported, got ${it.type ?? 'an item without a role'}`,
      where,
    );
  }
  const text = textOf(it.content, `${where}.content`, TEXT_TYPES);
  if (it.role === 'system' || it.role === 'developer') system.push(text);
  else messages.push({ role: it.role, content: text });
}

export function functionTools(body: Body): ToolDefinition[] | undefined {
  return body.tools?.map((t, i) => {
    const tool = t as { type: string; name?: unknown; description?: unknown; parameters?: unknown; strict?: unknown };
    if (tool.type !== 'function')
      throw invalid(`tools[${i}]: only function tools are supported, got ${tool.type}`, `tools[${i}].type`);
    if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name))
      throw invalid(
        `tools[${i}]: a function tool needs a name of letters, digits, _ and - (at most 64)`,
        `tools[${i}].name`,
      );
    if (
      tool.parameters !== undefined &&
      tool.parameters !== null &&
      (typeof tool.parameters !== 'object' || Array.isArray(tool.parameters))
    ) {
      throw invalid(`tools[${i}]: parameters must be a JSON Schema object`, `tools[${i}].parameters`);
    }
    return {
      name: tool.name,
      description: typeof tool.description === 'string' ? tool.description : undefined,
      parameters: parametersOf(tool.parameters as Record<string, unknown> | null | undefined),
      strict: typeof tool.strict === 'boolean' ? tool.strict : undefined,
    };
  });
}

export function toolChoice(c: Body['tool_choice']): ToolChoice | undefined {
  if (c === undefined) return undefined;
  if (c === 'none' || c === 'auto' || c === 'required') return c;
  const o = c as { type?: unknown; name?: unknown };
  if (typeof c === 'object' && o.type === 'function' && typeof o.name === 'string') return { name: o.name };
  throw invalid(`tool_choice must be none, auto, required or {type: "function", name}`, 'tool_choice');
}

function outputFormat(body: Body): OutputFormat | undefined {
  const f = body.text?.format;
  if (!f || f.type === 'text') return undefined;
  if (f.type === 'json_object') return { type: 'json_object' };
  return {
    type: 'json_schema',
    name: f.name,
    description: f.description,
    schema: f.schema,
    strict: f.strict ?? undefined,
  };
}
