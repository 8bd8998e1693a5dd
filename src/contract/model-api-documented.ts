/**
 * What /openapi.json says the three chat surfaces take, where the request schemas are kept loose so
 * the services can refuse with their families' own messages (an item type, a tool type, a content
 * block): these JSON Schemas are attached to those fields with `.meta()`, so the document lists
 * exactly what is accepted and a client that follows it is never refused.
 */

type Json = Record<string, unknown>;

const TOOL_NAME = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' };
const JSON_OBJECT_TEXT = {
  type: 'string',
  contentMediaType: 'application/json',
  contentSchema: { type: 'object' },
  description: "a JSON object's text",
};

const textPart = (types: readonly string[]): Json => ({
  type: 'object',
  properties: { type: { enum: [...types] }, text: { type: 'string' } },
  required: ['type', 'text'],
});

/** A string, or up to `max` text parts of these types. */
export function textOrParts(types: readonly string[], max: number, minItems = 0): Json {
  return { anyOf: [{ type: 'string' }, { type: 'array', items: textPart(types), minItems, maxItems: max }] };
}

/** Chat Completions: the deprecated function-calling fields are refused; the document says they may not be sent. */
export const chatDeprecated = (instead: string): Json => ({
  not: {},
  description: `deprecated: refused with a 400 that points to ${instead}`,
});

/**
 * Chat Completions: a message by its role. A tool message must name the call it answers
 * (tool_call_id, not empty); the others may leave it out.
 */
export const chatMessageByRole: Json = {
  oneOf: [
    { properties: { role: { enum: ['system', 'developer', 'user', 'assistant'] } } },
    {
      properties: { role: { const: 'tool' }, tool_call_id: { type: 'string', minLength: 1 } },
      required: ['tool_call_id'],
    },
  ],
};

/** Responses: the three kinds of input item the platform reads. */
export function responsesInputItem(maxParts: number): Json {
  const parts = textOrParts(['input_text', 'output_text', 'text'], maxParts);
  return {
    oneOf: [
      {
        type: 'object',
        properties: {
          type: { const: 'message' },
          role: { enum: ['system', 'developer', 'user', 'assistant'] },
          content: parts,
        },
        required: ['role'],
      },
      {
        type: 'object',
        properties: {
          type: { const: 'function_call' },
          call_id: { type: 'string' },
          name: { type: 'string' },
          arguments: JSON_OBJECT_TEXT,
        },
        required: ['type', 'call_id', 'name', 'arguments'],
      },
      {
        type: 'object',
        properties: { type: { const: 'function_call_output' }, call_id: { type: 'string' }, output: parts },
        required: ['type', 'call_id'],
      },
    ],
  };
}

export const responsesFunctionTool: Json = {
  type: 'object',
  properties: {
    type: { const: 'function' },
    name: TOOL_NAME,
    description: { type: ['string', 'null'] },
    parameters: { type: ['object', 'null'] },
    strict: { type: ['boolean', 'null'] },
  },
  required: ['type', 'name'],
};

export const responsesToolChoice: Json = {
  anyOf: [
    { enum: ['none', 'auto', 'required'] },
    { type: 'object', properties: { type: { const: 'function' }, name: TOOL_NAME }, required: ['type', 'name'] },
  ],
};

/** Messages: a user turn holds text and tool results; an assistant turn text, tool calls and thinking sent back. */
export function messagesMessage(maxBlocks: number): Json {
  const text = textPart(['text']);
  const toolResult = {
    type: 'object',
    properties: {
      type: { const: 'tool_result' },
      tool_use_id: { type: 'string' },
      content: textOrParts(['text'], maxBlocks),
      is_error: { type: 'boolean' },
    },
    required: ['type', 'tool_use_id'],
  };
  const toolUse = {
    type: 'object',
    properties: {
      type: { const: 'tool_use' },
      id: { type: 'string' },
      name: { type: 'string' },
      input: { type: 'object' },
    },
    required: ['type', 'id', 'name', 'input'],
  };
  const thinking = {
    type: 'object',
    properties: { type: { const: 'thinking' }, thinking: { type: 'string' }, signature: { type: 'string' } },
    required: ['type', 'thinking'],
  };
  const turn = (role: string, blocks: Json[]): Json => ({
    type: 'object',
    properties: {
      role: { const: role },
      content: {
        anyOf: [{ type: 'string' }, { type: 'array', items: { anyOf: blocks }, minItems: 1, maxItems: maxBlocks }],
      },
    },
    required: ['role', 'content'],
  });
  return { oneOf: [turn('user', [text, toolResult]), turn('assistant', [text, toolUse, thinking])] };
}

export const messagesTool: Json = {
  type: 'object',
  properties: { name: TOOL_NAME, description: { type: 'string' }, input_schema: { type: 'object' } },
  required: ['name', 'input_schema'],
  description: 'a client tool with its input_schema; server tools (a type, no input_schema) are refused with a 400',
};
