import type { GatewayMessage, OutputFormat, ToolDefinition } from '../gateway-types.js';

export interface PromptParts {
  system?: string;
  messages: ReadonlyArray<{ role: string; content: string; toolCalls?: GatewayMessage['toolCalls'] }>;
  tools?: ReadonlyArray<ToolDefinition>;
  outputFormat?: OutputFormat;
}

/**
 * Every text a prompt sends the model, so metering counts what the model reads: the system text,
 * each message's text (a tool result's included), the tool calls an assistant turn made (name and JSON arguments), tool results,
 * each tool's definition (as the JSON the families send) and the output schema. `framed` is how many
 * of them are messages or definitions, each framed by a few tokens as chat formats do.
 */
export function promptTexts(parts: PromptParts): { texts: string[]; framed: number } {
  const texts: string[] = [];
  let framed = 0;
  if (parts.system) {
    texts.push(parts.system);
    framed++;
  }
  for (const m of parts.messages) {
    texts.push(m.content);
    framed++;
    for (const c of m.toolCalls ?? []) texts.push(c.name, c.arguments);
  }
  for (const t of parts.tools ?? []) {
    texts.push(JSON.stringify({ name: t.name, description: t.description ?? '', parameters: t.parameters }));
    framed++;
  }
  if (parts.outputFormat?.type === 'json_schema') {
    texts.push(JSON.stringify(parts.outputFormat.schema));
    framed++;
  }
  return { texts: texts.filter((t) => t !== ''), framed };
}
