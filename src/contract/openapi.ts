import { z } from 'zod';
import { refusesUnknownQuery, type AuthGroup, type ErrorFamily, type EventStreamDef, type RouteDef } from './route.js';
import {
  AnthropicErrorBody,
  BetaErrorBody,
  DecisionsErrorBody,
  FinancialErrorBody,
  ImageErrorBody,
  JsonRpcErrorBody,
  OpenAIErrorBody,
  V2ErrorBody,
  ValidationErrorBody,
} from './errors.js';

/** Security requirements per auth group, in OpenAPI terms (an array entry = one accepted way). */
const SECURITY: Record<AuthGroup, Array<Record<string, string[]>>> = {
  none: [],
  'access-token': [{ accessToken: [] }],
  'token-or-key': [{ accessToken: [] }, { apiKeyHeader: [] }],
  'token-key-or-cookie': [{ accessToken: [] }, { apiKeyHeader: [] }, { sessionCookie: [] }],
  admin: [{ apiKeyHeader: [] }],
  'admin-or-cookie': [{ apiKeyHeader: [] }, { sessionCookie: [] }],
  'admin-with-admin-key': [{ apiKeyHeader: [], adminKey: [] }],
  'bearer-key': [{ bearerApiKey: [] }],
  key: [{ bearerApiKey: [] }, { apiKeyHeader: [] }],
};

/** Named schemas (recursive ones carry a meta id) moved to components.schemas while a document is built. */
let components: Record<string, unknown> = {};

/** `#/$defs/X` points into the schema itself; in the document it becomes `#/components/schemas/X`. */
function hoistDefs(out: Record<string, unknown>): Record<string, unknown> {
  const defs = out.$defs as Record<string, unknown> | undefined;
  if (!defs) return out;
  delete out.$defs;
  const rewrite = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(rewrite);
    if (!v || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [
        k,
        k === '$ref' && typeof x === 'string' && x.startsWith('#/$defs/')
          ? `#/components/schemas/${x.slice(8)}`
          : rewrite(x),
      ]),
    );
  };
  for (const [name, def] of Object.entries(defs)) components[name] = rewrite(def);
  return rewrite(out) as Record<string, unknown>;
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output') {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete out.$schema;
  return hoistDefs(out);
}

function parameters(route: RouteDef) {
  const list: unknown[] = [];
  for (const [where, obj] of [
    ['path', route.params],
    ['query', route.query],
    ['header', route.headers],
  ] as const) {
    if (!obj) continue;
    const schema = jsonSchema(obj, 'input') as { properties?: Record<string, unknown>; required?: string[] };
    for (const [name, prop] of Object.entries(schema.properties ?? {})) {
      list.push({
        name,
        in: where,
        required: where === 'path' || (schema.required ?? []).includes(name),
        schema: prop,
      });
    }
  }
  return list;
}

/**
 * The error body of each family: what any status the route does not list answers with (an auth
 * failure, a body too large, a rate limit, an internal error), as the `default` response.
 */
const FAMILY_ERRORS: Record<ErrorFamily, z.ZodType> = {
  image: z.union([ImageErrorBody, ValidationErrorBody]),
  v2: V2ErrorBody,
  openai: OpenAIErrorBody,
  anthropic: AnthropicErrorBody,
  decisions: DecisionsErrorBody,
  beta: BetaErrorBody,
  financial: FinancialErrorBody,
  mcp: JsonRpcErrorBody,
};

/**
 * A text/event-stream body, event by event. OpenAPI 3.1 has no way to describe the items of a
 * stream; OpenAPI 3.2 adds `itemSchema` to the media type for this. The document stays 3.1, so the
 * same schema rides in the extension `x-itemSchema`: each item is one event, {event, data, id}, and
 * `data` names its JSON schema with contentMediaType/contentSchema as 3.2 does (docs/decisions.md).
 */
function eventStreamMedia(stream: EventStreamDef) {
  const items = stream.events.map((e) => {
    const data =
      e.json === false
        ? jsonSchema(e.data, 'output')
        : { contentMediaType: 'application/json', contentSchema: jsonSchema(e.data, 'output') };
    const properties: Record<string, unknown> = { data };
    if (e.event) properties.event = { const: e.event };
    if (e.id) properties.id = { type: 'string' };
    const item: Record<string, unknown> = {
      type: 'object',
      properties,
      required: e.event ? ['event', 'data'] : ['data'],
      additionalProperties: false,
    };
    if (e.event) item.title = e.event;
    return item;
  });
  return {
    schema: { type: 'string', description: stream.description },
    'x-itemSchema': { anyOf: items },
  };
}

function responses(route: RouteDef) {
  const out: Record<string, { description: string; content?: Record<string, unknown> }> = {};
  for (const [status, def] of Object.entries(route.responses)) {
    if (def === null) out[status] = { description: 'No content' };
    else if (def instanceof z.ZodType) {
      out[status] = {
        description: status.startsWith('2') ? 'Success' : 'Error',
        content: { 'application/json': { schema: jsonSchema(def, 'output') } },
      };
    } else {
      // A page may answer several media types (a mindmap page: HTML, or its SVG or PNG by ?format).
      out[status] = {
        description: def.description,
        content: Object.fromEntries([def.contentType].flat().map((t) => [t, {}])),
      };
    }
  }
  if (route.stream) {
    const at = (out[String(route.stream.status)] ??= { description: route.stream.description });
    at.content = { ...at.content, 'text/event-stream': eventStreamMedia(route.stream) };
  }
  out.default = {
    description: `Any other failure, in the ${route.family} error shape`,
    content: { 'application/json': { schema: jsonSchema(FAMILY_ERRORS[route.family], 'output') } },
  };
  return out;
}

/** A multipart body without a JSON schema of its own: its file parts (up to their count) and text fields. */
function formSchema(form: NonNullable<RouteDef['form']>) {
  const file = { type: 'string', contentMediaType: 'application/octet-stream' };
  const properties: Record<string, unknown> = {};
  for (const [name, most] of Object.entries(form.files))
    properties[name] = most > 1 ? { type: 'array', items: file, maxItems: most } : file;
  for (const name of form.fields) properties[name] = { type: 'string' };
  return { type: 'object', properties };
}

/** Builds the OpenAPI 3.1 document from the route table. */
export function buildOpenApi(routes: readonly RouteDef[], info: { version: string; serverUrl?: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  components = {};
  for (const route of routes) {
    const op: Record<string, unknown> = {
      operationId: route.id,
      summary: route.summary,
      tags: [route.tag],
      security: SECURITY[route.auth],
      parameters: parameters(route),
      responses: responses(route),
    };
    if (refusesUnknownQuery(route))
      op.description = `Query parameters other than those listed are refused (${route.family === 'image' ? 422 : 400}).`;
    if (route.body) {
      const types =
        route.bodyType === 'json-or-multipart'
          ? ['application/json', 'multipart/form-data']
          : [route.bodyType === 'multipart' ? 'multipart/form-data' : 'application/json'];
      // A multipart body is described by its parts where the route lists them (files cannot be JSON).
      const schemaFor = (type: string) =>
        type === 'multipart/form-data' && route.form ? formSchema(route.form) : jsonSchema(route.body!, 'input');
      op.requestBody = {
        required: true,
        content: Object.fromEntries(types.map((type) => [type, { schema: schemaFor(type) }])),
      };
    } else if (route.form) {
      op.requestBody = { required: true, content: { 'multipart/form-data': { schema: formSchema(route.form) } } };
    }
    (paths[route.path] ??= {})[route.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'facet platform API', version: info.version, description: 'Generated from src/contract.' },
    servers: info.serverUrl ? [{ url: info.serverUrl }] : [],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      ...(Object.keys(components).length > 0 ? { schemas: components } : {}),
      securitySchemes: {
        accessToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'Access token minted by the identity provider',
        },
        bearerApiKey: { type: 'http', scheme: 'bearer', description: 'API key as a bearer credential' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        adminKey: { type: 'apiKey', in: 'header', name: 'X-Admin-Key' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'facet_session' },
      },
    },
  };
}
