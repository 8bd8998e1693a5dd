import type { z } from 'zod';
import { buildPath, type RouteDef } from '../contract/route.js';
import type { RawResponse, RequestSpec, Transport } from './transport.js';

type Infer<T> = T extends z.ZodType ? z.input<T> : never;
type SuccessBody<R extends RouteDef> = {
  [S in keyof R['responses']]: S extends 200 | 201 | 202 ? (R['responses'][S] extends z.ZodType ? z.output<R['responses'][S]> : unknown) : never;
}[keyof R['responses']];
/** v2 bodies are unwrapped to their data at run time (below); the type follows. */
type Unwrapped<R extends RouteDef> = R extends { family: 'v2' } ? (R extends { envelope: false } ? SuccessBody<R> : SuccessBody<R> extends { data: infer D } ? D : SuccessBody<R>) : SuccessBody<R>;

export interface CallInput<R extends RouteDef> {
  params?: Infer<R['params']>;
  query?: Infer<R['query']>;
  body?: Infer<R['body']>;
  headers?: Record<string, string>;
  /** Aborts the request (Ctrl-C while waiting). */
  signal?: AbortSignal;
}

function requestOf<const R extends RouteDef>(route: R, input: CallInput<R>): RequestSpec {
  return {
    method: route.method,
    path: buildPath(route.path, (input.params ?? {}) as Record<string, string>),
    auth: route.auth,
    service: route.family === 'image' ? 'image' : 'platform',
    query: input.query as Record<string, string>,
    body: input.body,
    headers: input.headers,
    signal: input.signal,
  };
}

/** Calls one contract route: path, method and credentials come from the route itself. */
export async function callRoute<const R extends RouteDef>(t: Transport, route: R, input: CallInput<R> = {}): Promise<Unwrapped<R>> {
  const result = await t.call<Record<string, unknown>>(requestOf(route, input));
  // v2 routes answer {status, message, data}: callers want data.
  if (route.family === 'v2' && route.envelope !== false && result && typeof result === 'object' && 'data' in result) {
    return result.data as Unwrapped<R>;
  }
  return result as Unwrapped<R>;
}

/** As callRoute, for the routes whose answer says more in its headers (a next-page cursor). */
export async function callRouteWithHeaders<const R extends RouteDef>(
  t: Transport,
  route: R,
  input: CallInput<R> = {},
): Promise<{ body: Unwrapped<R>; headers: RawResponse['headers'] }> {
  const res = await t.send(requestOf(route, input));
  return { body: t.parse<Unwrapped<R>>(res), headers: res.headers };
}
