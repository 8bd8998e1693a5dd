import type { z } from 'zod';
import { buildPath, type RouteDef } from '../contract/route.js';
import type { RawResponse, RequestSpec, Transport } from './transport.js';

type Infer<T> = T extends z.ZodType ? z.input<T> : never;
type SuccessBody<R extends RouteDef> = {
  [S in keyof R['responses']]: S extends 200 | 201 | 202
    ? R['responses'][S] extends z.ZodType
      ? z.output<R['responses'][S]>
      : unknown
    : never;
}[keyof R['responses']];
/** v2 bodies are unwrapped to their data at run time (below); the type follows. */
type Unwrapped<R extends RouteDef> = R extends { family: 'v2' }
  ? R extends { envelope: false }
    ? SuccessBody<R>
    : SuccessBody<R> extends { data: infer D }
      ? D
      : SuccessBody<R>
  : SuccessBody<R>;

export interface CallInput<R extends RouteDef> {
  params?: Infer<R['params']>;
  query?: Infer<R['query']>;
  body?: Infer<R['body']>;
  headers?: Record<string, string>;
  /** Aborts the request (Ctrl-C while waiting). */
  signal?: AbortSignal;
  /** A longer wait than the transport's, for a route the server may work on longer (web extract). */
  timeoutMs?: number;
  /** The server's own limit for this call, named in a timeout message. */
  serverLimitMs?: number;
}

/**
 * What the client sends a route by: its id, method, path, credentials and error family, without the
 * zod schemas of its bodies. The client never validates with those schemas (the server does), yet
 * naming a route by its contract object loads the contract module and with it zod, about a sixth of
 * `facet keys list`'s start-up (bench/cli-startup). A client declares the routes it calls with
 * routeRef<typeof contractRoute>(...): the type parameter is a type-only import, and the literal
 * fields must equal the contract's own (a different path or method fails the typecheck;
 * test/unit/client/route-refs.test.ts compares them at run time too).
 */
export type RouteRef<R extends RouteDef> = Pick<R, 'id' | 'method' | 'path' | 'auth' | 'family'> &
  (R extends { envelope: false } ? { envelope: false } : { envelope?: undefined }) & {
    /** Type only: the contract route this stands for, whose schemas type the call. */
    readonly __route?: R;
  };

export function routeRef<R extends RouteDef>(meta: RouteRef<R>): RouteRef<R> {
  return meta;
}

/** A contract route, or a reference to one: either is enough to call it. */
type Callable = RouteDef | RouteRef<RouteDef> | RouteRef<RouteDef & { envelope: false }>;
/** The contract route a Callable stands for, whose schemas type the input and the answer. */
type DefOf<C> = Extract<C extends RouteDef ? C : C extends RouteRef<infer R> ? R : never, RouteDef>;

function requestOf(route: Callable, input: CallInput<RouteDef>): RequestSpec {
  return {
    method: route.method,
    path: buildPath(route.path, (input.params ?? {}) as Record<string, string>),
    auth: route.auth,
    service: route.family === 'image' ? 'image' : 'platform',
    query: input.query as Record<string, string>,
    body: input.body,
    headers: input.headers,
    signal: input.signal,
    // "web.extract" → "web extract": what the user asked for, not the HTTP route.
    operation: route.id.replace(/[.]/g, ' '),
    timeoutMs: input.timeoutMs,
    serverLimitMs: input.serverLimitMs,
  };
}

/** Calls one contract route (or a reference to one): path, method and credentials come from the route itself. */
export async function callRoute<const C extends Callable>(
  t: Transport,
  route: C,
  input: CallInput<DefOf<C>> = {},
): Promise<Unwrapped<DefOf<C>>> {
  const result = await t.call<Record<string, unknown>>(requestOf(route, input));
  // v2 routes answer {status, message, data}: callers want data.
  if (route.family === 'v2' && route.envelope !== false && result && typeof result === 'object' && 'data' in result) {
    return result.data as Unwrapped<DefOf<C>>;
  }
  return result as Unwrapped<DefOf<C>>;
}

/** As callRoute, for the routes whose answer says more in its headers (a next-page cursor). */
export async function callRouteWithHeaders<const C extends Callable>(
  t: Transport,
  route: C,
  input: CallInput<DefOf<C>> = {},
): Promise<{ body: Unwrapped<DefOf<C>>; headers: RawResponse['headers'] }> {
  const res = await t.send(requestOf(route, input));
  return { body: t.parse<Unwrapped<DefOf<C>>>(res), headers: res.headers };
}
