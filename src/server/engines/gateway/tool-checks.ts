import type { GenerateRequest } from '../gateway-types.js';
import { HttpError } from '../../errors.js';
import { schemaAnswers } from './schema-work.js';
import { takesOutputFormat, takesTools, type CatalogModel } from './catalog.js';

const invalid = (message: string, param: string) =>
  new HttpError('invalid_parameter', message, { status: 400, extra: { param } });

/**
 * A model that cannot use tools or answer in a JSON format refuses a request that asks for them,
 * rather than ignoring them silently (a caller's agent loop would then never see a call). A tool
 * choice must name a tool the request defines, and a forced call needs tools to call.
 */
export async function checkToolUse(
  model: Pick<CatalogModel, 'id' | 'api' | 'tools' | 'structured_output' | 'max_output_tokens'>,
  request: GenerateRequest,
): Promise<void> {
  const tools = request.tools ?? [];
  // Earlier tool turns alone do not need tools on a local model: it reads the conversation's text,
  // so a continuation without tools (previous_response_id) goes on. An upstream family refuses tool
  // turns in a request that defines no tools, so one that cannot take tools refuses them here.
  const history =
    model.api !== 'local' && request.messages.some((m) => m.role === 'tool' || (m.toolCalls?.length ?? 0) > 0);
  if ((tools.length > 0 || history) && !takesTools(model)) {
    throw new HttpError(
      'tools_not_supported',
      `Model ${model.id} cannot use tools; use a model that can, such as facet-agent (local) or an upstream model`,
      {
        status: 400,
        extra: { param: 'tools' },
      },
    );
  }
  if (request.outputFormat && !takesOutputFormat(model)) {
    throw new HttpError(
      'structured_output_not_supported',
      `Model ${model.id} cannot answer in a given JSON format; use a model that can, such as facet-agent (local) or an OpenAI-compatible upstream model`,
      {
        status: 400,
        extra: { param: FORMAT_FIELD[request.surface ?? 'chat'] },
      },
    );
  }
  const names = new Set<string>();
  for (const t of tools) {
    if (names.has(t.name)) throw invalid(`Tool names must be unique: ${t.name} appears twice`, 'tools');
    names.add(t.name);
  }
  // Every family refuses a tool result that answers no earlier call: the ids are what tie them.
  const called = new Set<string>();
  request.messages.forEach((m, i) => {
    for (const c of m.toolCalls ?? []) called.add(c.id);
    if (m.role === 'tool' && !called.has(m.toolCallId ?? '')) {
      throw invalid(
        `The tool result ${m.toolCallId ?? '(no id)'} answers no tool call of an earlier assistant turn (message ${i})`,
        'messages',
      );
    }
  });
  const choice = request.toolChoice;
  if (typeof choice === 'object' && !names.has(choice.name))
    throw invalid(`tool_choice names ${choice.name}, which is not among the tools`, 'tool_choice');
  if (choice === 'required' && tools.length === 0)
    throw invalid('tool_choice requires a tool call, and the request defines no tools', 'tool_choice');
  if (model.api === 'local') await checkLocalSchemas(request, request.maxTokens ?? model.max_output_tokens);
}

/** Where each family carries the answer's JSON format, for the `param` of an error about it. */
const FORMAT_FIELD = { chat: 'response_format', responses: 'text.format', messages: 'output_config.format' } as const;

/** Where each family carries a tool's schema, for the `param` of an error about it. */
const TOOL_SCHEMA_FIELD = { chat: 'function.parameters', responses: 'parameters', messages: 'input_schema' } as const;

/**
 * A local model runs the schemas' `pattern`s itself (schema-values.ts), so it refuses one RE2 cannot
 * run, and a schema it cannot write a valid value for (an unsatisfiable pattern, bounds or
 * recursion) before answering — a stream never starts only to fail. An upstream receives the
 * schema as sent and judges it itself.
 */
async function checkLocalSchemas(request: GenerateRequest, maxTokens: number): Promise<void> {
  const tasks: Array<{ schema: Record<string, unknown>; text: string; param: string }> = [];
  const format = request.outputFormat;
  if (format?.type === 'json_schema')
    tasks.push({ schema: format.schema, text: '', param: FORMAT_FIELD[request.surface ?? 'chat'] });
  const field = TOOL_SCHEMA_FIELD[request.surface ?? 'chat'];
  request.tools?.forEach((t, i) => tasks.push({ schema: t.parameters, text: '', param: `tools[${i}].${field}` }));
  if (tasks.length === 0) return;
  for (const t of tasks) {
    const members = enumMembers(t.schema);
    if (members > MAX_ENUM_MEMBERS)
      throw invalid(
        `A schema may hold at most ${MAX_ENUM_MEMBERS.toLocaleString('en-US')} enum values in all (as OpenAI's structured outputs allow); this one holds ${members.toLocaleString('en-US')}`,
        t.param,
      );
  }
  const owner = request.scope.apiKeyId ?? `user:${request.scope.userId}`;
  await schemaAnswers({ tasks, maxTokens, checkPatterns: true }, { owner, signal: request.signal });
}

/** Enum values one schema may hold in all: OpenAI's structured-output bound, checked before any work. */
export const MAX_ENUM_MEMBERS = 1000;

/** Counts the enum values anywhere in a schema: one linear walk over the parsed JSON, no recursion. */
export function enumMembers(schema: unknown): number {
  let count = 0;
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (const v of node) stack.push(v);
      continue;
    }
    for (const [k, v] of Object.entries(node)) {
      if (k === 'enum' && Array.isArray(v)) count += v.length;
      else stack.push(v);
    }
  }
  return count;
}
