import type { GatewayMessage, GatewayUsage, GenerateRequest, MeterScope, StopReason } from '../gateway-types.js';

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
  /** Who is calling: a local model grounds on this caller's knowledge. */
  scope?: MeterScope;
  signal?: AbortSignal;
}

/** Usage as a backend reports it: any field may be missing, and the gateway counts what is. */
export type ReportedUsage = Partial<GatewayUsage> | null;

export interface BackendResult {
  text: string;
  stopReason: StopReason;
  usage: ReportedUsage;
}

/** `start` is optional: an upstream that counts the prompt before the first token says so with it. */
export type BackendEvent =
  | { type: 'start'; usage: ReportedUsage }
  | { type: 'delta'; text: string }
  | { type: 'end'; stopReason: StopReason; usage: ReportedUsage };

/** A local engine or an upstream adapter. */
export interface Backend {
  generate(call: BackendCall): Promise<BackendResult>;
  stream(call: BackendCall): AsyncIterable<BackendEvent>;
}

/** Streams a finished text in word-sized deltas: how local engines stream. */
export async function* streamText(result: BackendResult, signal?: AbortSignal): AsyncIterable<BackendEvent> {
  for (const piece of result.text.match(/\s*\S+\s*?(?=\s|$)|\s+$/g) ?? []) {
    if (signal?.aborted) return;
    yield { type: 'delta', text: piece };
  }
  yield { type: 'end', stopReason: result.stopReason, usage: result.usage };
}
