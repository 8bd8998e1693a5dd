import type { z } from 'zod';
import type { MultipartForm } from './fields.js';

/**
 * Who may call a route. Each group maps to exactly one mechanism of spec part 5, and the server's
 * auth layer and the client's header selection both switch on this value.
 */
export type AuthGroup =
  | 'none' // /models, DELETE /auth/session-cookie, /healthz, /openapi.json
  | 'access-token' // Authorization: Bearer <ACCESS_TOKEN> (/auth/api-keys, POST /auth/session-cookie)
  | 'token-or-key' // bearer access token or X-API-Key (/tasks, /projects)
  | 'token-key-or-cookie' // as above, or the facet_session cookie (artifact resource)
  | 'admin' // X-API-Key of an admin user (/admin/*)
  | 'admin-or-cookie' // as 'admin', or the facet_session cookie of an admin (the console's live log)
  | 'admin-with-admin-key' // admin X-API-Key plus X-Admin-Key (/admin/api-key-usage)
  | 'bearer-key' // Authorization: Bearer <API_KEY>, strict format (/v2, /v1/beta)
  | 'key'; // Bearer <API_KEY> or X-API-Key (/api/v1)

/** The error body shape a route answers with; see ARCHITECTURE "Error families". */
export type ErrorFamily = 'image' | 'v2' | 'openai' | 'anthropic' | 'decisions' | 'beta' | 'financial' | 'mcp';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One kind of server-sent event a stream can carry: its `event:` name (absent when the stream sends
 * unnamed events, as Chat Completions does) and what its `data:` line holds — JSON of `data`'s
 * schema, or with `json: false` a plain string such as the `[DONE]` sentinel.
 */
export interface StreamEventDef {
  event?: string;
  data: z.ZodType;
  json?: boolean;
  /** The stream sets `id:` on this event (the offset to resume from). */
  id?: boolean;
}

/** A text/event-stream answer of a route, at `status` (the success status), event by event. */
export interface EventStreamDef {
  status: number;
  description: string;
  events: readonly StreamEventDef[];
}

export interface RouteDef {
  id: string;
  method: HttpMethod;
  /** OpenAPI-style path, parameters written {name}. */
  path: string;
  auth: AuthGroup;
  family: ErrorFamily;
  summary: string;
  tag: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** Request headers the route reads (names in lower case), validated after the body and listed in the OpenAPI document. */
  headers?: z.ZodObject;
  body?: z.ZodType;
  /**
   * json (default) or multipart; multipart bodies are parsed by the route itself, and so are the
   * bodies of a route that takes either (json-or-multipart, e.g. POST /v2/landing_page).
   */
  bodyType?: 'json' | 'multipart' | 'json-or-multipart';
  /** The parts a multipart body may hold; the server's reader refuses any other. */
  form?: MultipartForm;
  /** Success and error responses by status; null means no body. */
  responses: Record<number, z.ZodType | null | { contentType: string | readonly string[]; description: string }>;
  /** The route can answer a text/event-stream (the model surfaces with stream: true, conversation streams). */
  stream?: EventStreamDef;
  /** v2 routes wrap data in {status, message, data} unless this is false (streams, redirects). */
  envelope?: boolean;
  /** Status for a request that fails validation, where the family's default is not right. */
  validationStatus?: number;
  /** v2 code for a request that fails validation, where the surface names its own (WEB_EXTRACT_FAILED). */
  validationCode?: string;
  /** The largest body the route reads, in bytes, where the server's default (10 MiB) is too much. */
  bodyLimit?: number;
}

/**
 * /v1/beta bodies: at most 4 MiB. A request's 100 tasks hold at most 20,000 JSON values in all
 * (beta-bounds.ts), which fit in well under it; a larger body is refused (413) before it is parsed,
 * since parsing tens of MB of JSON holds the event loop.
 */
export const MAX_BETA_BODY_BYTES = 4 * 1024 * 1024;

/** The body limit a route is registered with: its own, its family's, or the server's default. */
export function bodyLimitOf(route: Pick<RouteDef, 'bodyLimit' | 'family'>): number | undefined {
  return route.bodyLimit ?? (route.family === 'beta' ? MAX_BETA_BODY_BYTES : undefined);
}

const STRICT_QUERY_FAMILIES: ReadonlySet<ErrorFamily> = new Set(['image', 'v2', 'beta', 'financial']);

/**
 * Whether a route refuses query parameters it does not declare (400 naming them): the API routes
 * of the image service, /v2 and /v1/beta that list their parameters, as the spec does. /api/v1
 * ignores unknown ones, since the official clients add their own (Anthropic's `beta=true`); so do the
 * public signed links (auth none), to which sites append tracking tags.
 */
export function refusesUnknownQuery(route: Pick<RouteDef, 'family' | 'auth' | 'query'>): boolean {
  return route.query !== undefined && STRICT_QUERY_FAMILIES.has(route.family) && route.auth !== 'none';
}

export function defineRoute<const R extends RouteDef>(route: R): R {
  return route;
}

/** Fills {name} placeholders; values are URL-encoded so an id can never add a path segment. */
export function buildPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}
