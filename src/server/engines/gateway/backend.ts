import type {
  GatewayMessage,
  GatewayUsage,
  GenerateRequest,
  MeterScope,
  OutputFormat,
  StopReason,
  ToolCall,
  ToolCallEvent,
  ToolChoice,
  ToolDefinition,
} from '../gateway-types.js';

/** What the gateway hands a backend once it has resolved the model and checked the limits. */
export interface BackendCall {
  /** The name the backend knows the model by (catalog upstream_model, else id). */
  model: string;
  system?: string;
  messages: GatewayMessage[];
  maxTokens: number;
  temperature?: number;
  stop?: string[];
  context?: GenerateRequest['context'];
  question?: string;
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  outputFormat?: OutputFormat;
  artifact?: GenerateRequest['artifact'];
  /** Who is calling: a local model grounds on this caller's knowledge. */
  scope?: MeterScope;
  signal?: AbortSignal;
}

/** Usage as a backend reports it: any field may be missing, and the gateway counts what is. */
export type ReportedUsage = Partial<GatewayUsage> | null;

export interface BackendResult {
  text: string;
  toolCalls?: ToolCall[];
  stopReason: StopReason;
  usage: ReportedUsage;
}

/** `start` is optional: an upstream that counts the prompt before the first token says so with it. */
export type BackendEvent =
  | { type: 'start'; usage: ReportedUsage }
  | { type: 'delta'; text: string }
  | ToolCallEvent
  | { type: 'end'; stopReason: StopReason; usage: ReportedUsage };

/** A local engine or an upstream adapter. */
export interface Backend {
  generate(call: BackendCall): Promise<BackendResult>;
  stream(call: BackendCall): AsyncIterable<BackendEvent>;
}

/** How many characters of a tool call's arguments one streamed piece carries (local engines). */
const ARGUMENT_PIECE = 7;

/** A text cut into pieces of ARGUMENT_PIECE code points, so a piece never splits a surrogate pair. */
function shortPieces(text: string): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let at = 0; at < chars.length; at += ARGUMENT_PIECE) out.push(chars.slice(at, at + ARGUMENT_PIECE).join(''));
  return out;
}

/**
 * Streams a finished reply: the text in word-sized deltas (a JSON answer, `json`, in short pieces
 * like tool arguments, since it has few spaces), then each tool call (its id and name, then its
 * arguments in short pieces that cut through keys and values, as real models stream them, so
 * clients' reassembly and partial parsing are exercised): how local engines stream.
 */
export async function* streamText(
  result: BackendResult,
  signal?: AbortSignal,
  options: { json?: boolean } = {},
): AsyncIterable<BackendEvent> {
  const pieces = options.json ? shortPieces(result.text) : (result.text.match(/\s*\S+\s*?(?=\s|$)|\s+$/g) ?? []);
  for (const piece of pieces) {
    if (signal?.aborted) return;
    yield { type: 'delta', text: piece };
  }
  for (const [index, call] of (result.toolCalls ?? []).entries()) {
    if (signal?.aborted) return;
    yield { type: 'tool_call', index, id: call.id, name: call.name };
    for (const delta of shortPieces(call.arguments)) {
      if (signal?.aborted) return;
      yield { type: 'tool_arguments', index, delta };
    }
  }
  yield { type: 'end', stopReason: result.stopReason, usage: result.usage };
}
