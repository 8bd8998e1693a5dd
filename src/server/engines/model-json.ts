import { jsonrepair } from 'jsonrepair';
import type { z } from 'zod';
import type { GenerateRequest, GenerateResult, ModelGateway } from './gateway-types.js';

/** What a model's reply held, read as the JSON object a prompt asked for. */
export type ModelJson<T> = { ok: true; value: T } | { ok: false; problem: string };

/**
 * The first {...} of a reply (models wrap JSON in prose or a fence), parsed; when it does not parse,
 * repaired (jsonrepair: trailing commas, single quotes, unquoted keys, a cut-off end) and parsed
 * again; then checked against `shape`.
 */
export function readModelJson<T>(text: string, shape: z.ZodType<T>): ModelJson<T> {
  const start = text.indexOf('{');
  if (start < 0) return { ok: false, problem: 'the reply holds no JSON object' };
  const end = text.lastIndexOf('}');
  const candidate = end > start ? text.slice(start, end + 1) : text.slice(start);
  let raw: unknown;
  try {
    raw = JSON.parse(candidate);
  } catch (err) {
    try {
      raw = JSON.parse(jsonrepair(end > start ? candidate : text.slice(start)));
    } catch {
      return { ok: false, problem: `the reply is not valid JSON (${(err as Error).message})` };
    }
  }
  const parsed = shape.safeParse(raw);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
  return { ok: false, problem: `the JSON does not have the expected shape${where}: ${issue?.message ?? 'invalid'}` };
}

/**
 * Asks the gateway for a JSON object of `shape`; a reply that is not one, even repaired, is asked for
 * once more with what was wrong with it. The last result is returned either way, so the caller
 * decides what a second failure means (a clear task error, or a fallback).
 */
export async function generateModelJson<T>(
  gateway: ModelGateway,
  request: GenerateRequest,
  shape: z.ZodType<T>,
): Promise<{ result: GenerateResult; json: ModelJson<T>; attempts: number }> {
  const first = await gateway.generate(request);
  const json = readModelJson(first.text, shape);
  if (json.ok) return { result: first, json, attempts: 1 };
  const retry = await gateway.generate({
    ...request,
    messages: [
      ...request.messages,
      { role: 'assistant', content: first.text },
      {
        role: 'user',
        content: `That reply could not be used: ${json.problem}. Answer again with the one JSON object only, nothing before or after it.`,
      },
    ],
  });
  return { result: retry, json: readModelJson(retry.text, shape), attempts: 2 };
}
