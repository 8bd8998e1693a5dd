import type { ToolCall } from '../../engines/gateway-types.js';
import { HttpError } from '../../errors.js';

type Part = { type: string; text?: string };

/**
 * The text of a message's content: a string, or text parts joined. The gateway carries text only,
 * so any other part (images, tool calls, files) is refused with a message that says so, rather than
 * silently dropped.
 */
export function textOf(
  content: string | Part[] | null | undefined,
  where: string,
  textTypes: readonly string[],
): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content
    .map((part, i) => {
      if (!textTypes.includes(part.type) || typeof part.text !== 'string') {
        throw new HttpError(
          'invalid_parameter',
          `${where}[${i}]: only text content is supported (${textTypes.join(', ')}), got ${part.type}`,
          {
            status: 400,
            extra: { param: where },
          },
        );
      }
      return part.text;
    })
    .join('');
}

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
