import type { ToolCall } from '../../engines/gateway-types.js';
import { HttpError } from '../../errors.js';

type Part = { type: string; text?: string };

const refused = (message: string, param: string) =>
  new HttpError('invalid_parameter', message, { status: 400, extra: { param } });

/**
 * The text of a message's content: a string, or text parts joined. The gateway carries text only,
 * so any other part (images, tool calls, files) is refused with a message that says so, rather than
 * silently dropped. Content arrives here unchecked where the contract keeps a block loose (a tool
 * result inside a message), so every other shape is refused by its field too, never thrown at.
 */
export function textOf(content: unknown, where: string, textTypes: readonly string[]): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw refused(`${where}: must be a string or an array of content parts`, where);
  return content
    .map((part: unknown, i) => {
      const at = `${where}[${i}]`;
      if (typeof part !== 'object' || part === null || Array.isArray(part))
        throw refused(`${at}: a content part must be an object with a type, got ${describe(part)}`, at);
      const { type, text } = part as Partial<Part>;
      if (typeof type !== 'string' || !textTypes.includes(type) || typeof text !== 'string') {
        throw refused(
          `${at}: only text content is supported (${textTypes.join(', ')}), got ${typeof type === 'string' ? type : 'a part without a type'}`,
          where,
        );
      }
      return text;
    })
    .join('');
}

/**
 * A tool's result as the model reads it. The SDKs send a string or content parts; a program that
 * hands over its result object (or a number, a boolean) as it is means that value, so it becomes its
 * JSON text, as a tool's text result usually is.
 */
export function toolOutputText(output: unknown, where: string, textTypes: readonly string[]): string {
  if (output !== null && (typeof output === 'number' || typeof output === 'boolean')) return JSON.stringify(output);
  if (typeof output === 'object' && output !== null && !Array.isArray(output)) return JSON.stringify(output);
  return textOf(output, where, textTypes);
}

const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);

/** System texts gathered from several places, in order, one paragraph each. */
export function joinSystem(parts: Array<string | null | undefined>): string | undefined {
  const kept = parts.filter((p): p is string => typeof p === 'string' && p !== '');
  return kept.length ? kept.join('\n\n') : undefined;
}

export const nowSeconds = (now: Date) => Math.floor(now.getTime() / 1000);

/**
 * A tool call of the request's history. Its arguments must be a JSON object's text: the Messages
 * family carries them as an object, so text that is not one could not be passed on faithfully.
 */
export function toolCallOf(id: string, name: string, args: string, where: string): ToolCall {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args === '' ? '{}' : args);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new HttpError('invalid_parameter', `${where}: the arguments of tool call ${id} must be a JSON object`, {
      status: 400,
      extra: { param: where },
    });
  }
  return { id, name, arguments: args === '' ? '{}' : args };
}

/** A tool's parameters schema; a tool without one takes no arguments. */
export function parametersOf(schema: Record<string, unknown> | null | undefined): Record<string, unknown> {
  return schema ?? { type: 'object', properties: {} };
}
