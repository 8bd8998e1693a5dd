import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { createGenerator, registerFormat } from 'json-schema-faker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHttpsPages, type HttpsPages } from '../helpers/https-pages.js';
import { startPlatform, tempDir, type Platform } from '../helpers/platform.js';

/**
 * Issue 29: a property run over the served /openapi.json, as Schemathesis runs one. For every
 * operation, requests built from its own parameter and body schemas (seeded, so a failure repeats):
 * no answer is a 5xx, none is a validation refusal (400/422) of data the document allows, and every
 * answer matches the document (the platform's response journal checks each one, see platform.ts).
 */
const EXAMPLES = Number(process.env.FACET_PROPERTY_EXAMPLES) || 3;
/** The first seed: a longer run from another seed explores requests the usual run never sends. */
const FIRST_SEED = Number(process.env.FACET_PROPERTY_SEED) || 1000;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

interface Operation {
  id: string;
  method: string;
  path: string;
  parameters?: Array<{ name: string; in: 'path' | 'query' | 'header' | 'cookie'; required?: boolean; schema: object }>;
  requestBody?: { required?: boolean; content: Record<string, { schema: object }> };
  security?: Array<Record<string, string[]>>;
}

let p: Platform;
let pages: HttpsPages;
let doc: { paths: Record<string, Record<string, any>>; components?: { schemas?: Record<string, object> } };

beforeAll(async () => {
  pages = await serveHttpsPages(tempDir('tls'));
  p = await startPlatform({ allowLocalFetch: true, env: { NODE_EXTRA_CA_CERTS: pages.caFile } });
  doc = await (await p.fetch('/openapi.json')).json();
  // Every URL the run sends names a page on this machine: no test may reach the network.
  let page = 0;
  const next = () => new URL(`/page/${page++}`, pages.url).href;
  registerFormat('uri', next);
  registerFormat('url', next);
}, 60_000);
afterAll(async () => {
  await pages?.close();
  p?.cleanup();
});

function operations(): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, op]) => ({
        ...op,
        id: op.operationId ?? `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        parameters: [...(item.parameters ?? []), ...(op.parameters ?? [])],
      })),
  );
}

/** The credentials an operation's first security requirement names, from the bootstrap admin. */
function credentials(op: Operation): Record<string, string> {
  const wanted = Object.keys(op.security?.[0] ?? {});
  const h: Record<string, string> = {};
  for (const scheme of wanted) {
    if (scheme === 'bearerApiKey') h.authorization = `Bearer ${p.boot.api_key}`;
    if (scheme === 'accessToken') h.authorization = `Bearer ${p.boot.access_token}`;
    if (scheme === 'apiKeyHeader') h['x-api-key'] = p.boot.api_key;
    if (scheme === 'adminKey') h['x-admin-key'] = p.boot.admin_key;
  }
  return h;
}

const objectOf = (params: NonNullable<Operation['parameters']>) => ({
  type: 'object',
  properties: Object.fromEntries(params.map((q) => [q.name, q.schema])),
  required: params.filter((q) => q.required).map((q) => q.name),
  additionalProperties: false,
});

/**
 * What a schema cannot say, each refusal a documented rule of the spec or the platform: a cursor or
 * signature is only valid as the server issued it, and some rules join two fields.
 */
const ISSUED_BY_SERVER = new Set(['cursor', 'previous_response_id']);
const DOCUMENTED: Array<[string, RegExp, string]> = [
  ['api.decisions.create', /planned and not yet available/, 'the spec: planned, not yet available (501)'],
  ['youtube.subtitling', /no subtitles for video/, 'the spec: 400 for a missing video or subtitles'],
  [
    'beta.webanalytics.landing-pages',
    /is after end_date|months; at most 120 in one request/,
    'a date range runs forwards, over at most 120 months (on the field)',
  ],
  [
    'slides.createTheme',
    /has a contrast of/,
    'theme colours must keep text readable (WCAG AA), described on the field',
  ],
  [
    'api.responses.create',
    /must be a JSON object/,
    "arguments is a JSON object's text (contentSchema), which generators do not read",
  ],
  [
    'api.responses.input_tokens',
    /must be a JSON object/,
    "arguments is a JSON object's text (contentSchema), which generators do not read",
  ],
  ['web.extract', /matches no element on the page/, 'a selector is checked against the page fetched'],
  ['mindmap.create', /has no word to map/, 'a query names a topic (said on the field): a word, not one character'],
  ['mindmap.create', /nothing to draw about/, 'a map is drawn from what the LiveDoc holds about the query (422)'],
  [
    'slides.create',
    /a deck is written from sources/,
    'a deck without a LiveDoc is written from the content its query holds; a bare request has none (issue 45)',
  ],
  [
    'mcp.post',
    /MCP_SESSION_REQUIRED/,
    'the MCP specification: a session starts with an initialize request, which a generated message is not',
  ],
  // Node trusts the test's self-signed page server (NODE_EXTRA_CA_CERTS); Chromium, for crawl_mode fine, does not.
  ['web.extract', /ERR_CERT_AUTHORITY_INVALID/, 'the page could not be loaded: a fetch failure, not a refusal'],
];

interface Finding {
  op: string;
  status: number;
  request: string;
  answer: string;
}

/** A request built from an operation's own schemas: its path, query and headers, and its JSON body. */
interface Built {
  url: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: Record<string, unknown> | undefined;
}

async function build(op: Operation, seed: number): Promise<Built> {
  const gen = createGenerator({ seed, refDepthMax: 3, maxItems: 3, maxLength: 40 } as never);
  const withDefs = (schema: object) => ({ ...schema, components: doc.components });
  const params = op.parameters ?? [];
  const pick = async (where: string) =>
    (await gen.generate(
      withDefs(objectOf(params.filter((q) => q.in === where && !ISSUED_BY_SERVER.has(q.name)))) as never,
    )) as Record<string, unknown>;
  const [pathValues, queryValues, headers] = [await pick('path'), await pick('query'), await pick('header')];
  const url = op.path.replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(String(pathValues[name] ?? 'x')));
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(queryValues))
    for (const one of Array.isArray(v) ? v : [v])
      query.append(k, typeof one === 'object' ? JSON.stringify(one) : String(one));
  const json = op.requestBody?.content['application/json'];
  const body = json ? ((await gen.generate(withDefs(json.schema) as never)) as Record<string, unknown>) : undefined;
  if (body && typeof body === 'object') for (const name of ISSUED_BY_SERVER) delete body[name];
  // A page load waits for a selector up to its timeout (30 s by default): a short one keeps the run short.
  if (op.id === 'web.extract' && body) body.timeout = 3000;
  return {
    url,
    query,
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)])),
    body,
  };
}

/** Sends a built request; a finding when the answer is a 5xx or a validation refusal (400/422) not documented. */
async function send(op: Operation, r: Built): Promise<Finding | undefined> {
  const url = [...r.query].length ? `${r.url}?${r.query}` : r.url;
  const body = r.body === undefined ? undefined : JSON.stringify(r.body);
  const res = await p.fetch(url, {
    method: op.method,
    headers: { ...r.headers, ...credentials(op), ...(body ? { 'content-type': 'application/json' } : {}) },
    body,
    signal: AbortSignal.timeout(30_000),
  });
  // A stream that answered with its headers has been accepted; it is not read to its end.
  const streaming = res.headers.get('content-type')?.startsWith('text/event-stream') && res.status < 300;
  const answer = streaming ? (await res.body?.cancel(), '') : await res.text();
  if (DOCUMENTED.some(([id, message]) => id === op.id && message.test(answer))) return undefined;
  if (res.status >= 500 || res.status === 400 || res.status === 422)
    return {
      op: op.id,
      status: res.status,
      request: `${op.method} ${url} ${body ?? ''}`.slice(0, 600),
      answer: answer.slice(0, 400),
    };
  return undefined;
}

const exercise = async (op: Operation, seed: number) => send(op, await build(op, seed));
const report = (findings: Finding[]) =>
  findings.map((f) => `${f.op} → ${f.status}\n  ${f.request}\n  ${f.answer}`).join('\n');
const failed = (op: Operation) => (e: Error) => ({ op: op.id, status: 0, request: '', answer: e.message });

describe('every operation of /openapi.json with data its schemas allow', () => {
  it('answers no 5xx and refuses none of it as invalid', async () => {
    const ops = operations().filter((op) => !op.requestBody || op.requestBody.content['application/json']);
    expect(ops.length).toBeGreaterThan(100);
    const findings: Finding[] = [];
    for (const op of ops)
      for (let i = 0; i < EXAMPLES; i++) {
        const f = await exercise(op, FIRST_SEED + i).catch(failed(op));
        if (f) findings.push(f);
      }
    expect(report(findings)).toBe('');
  }, 600_000);
});

describe('what the document leaves out is answered as documented (issue 41)', () => {
  it('a method a path does not have is 405 with Allow naming exactly the methods the document lists', async () => {
    const wrong: string[] = [];
    const templates = Object.keys(doc.paths).map((t) => ({
      t,
      pattern: new RegExp(`^${t.replace(/\{\w+\}/g, '[^/]+')}$`),
    }));
    for (const path of Object.keys(doc.paths)) {
      const url = path.replace(/\{(\w+)\}/g, 'x1');
      // A concrete path may fit several templates (`/resources/doc` and `/resources/{resource_id}`):
      // each of their methods is routed, so Allow lists them all.
      const listed = templates
        .filter(({ pattern }) => pattern.test(url))
        .flatMap(({ t }) => Object.keys(doc.paths[t]))
        .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
        .map((m) => m.toUpperCase());
      const allow = [...new Set([...listed, ...(listed.includes('GET') ? ['HEAD'] : [])])].sort().join(', ');
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => !listed.includes(m))) {
        const res = await p.fetch(url, {
          method,
          headers: { 'content-type': 'application/json' },
          body: method === 'GET' ? undefined : '{',
        });
        await res.body?.cancel();
        if (res.status !== 405 || res.headers.get('allow') !== allow)
          wrong.push(
            `${method} ${url} → ${res.status} Allow: ${res.headers.get('allow')} (expected 405 Allow: ${allow})`,
          );
      }
    }
    expect(wrong.join('\n')).toBe('');
  }, 60_000);

  it('an unknown query parameter is refused by name where the operation says so, and changes nothing elsewhere', async () => {
    const findings: Finding[] = [];
    const wrong: string[] = [];
    for (const op of operations().filter((o) => !o.requestBody || o.requestBody.content['application/json'])) {
      const r = await build(op, 2000);
      r.query.append('zz_unknown', '1');
      if (
        /refused/.test(String((doc.paths[op.path][op.method.toLowerCase()] as { description?: string }).description))
      ) {
        const url = `${r.url}?${r.query}`;
        const res = await p.fetch(url, { method: op.method, headers: { ...r.headers, ...credentials(op) } });
        const text = await res.text();
        if (![400, 422].includes(res.status) || !text.includes('zz_unknown'))
          wrong.push(`${op.id}: ${op.method} ${url} → ${res.status} ${text.slice(0, 200)}`);
      } else {
        const f = await send(op, r).catch(failed(op));
        if (f) findings.push(f);
      }
    }
    expect(wrong.join('\n')).toBe('');
    expect(report(findings)).toBe('');
  }, 120_000);

  it('the server refuses as invalid nothing the document accepts: each body field emptied or zeroed in turn', async () => {
    const ajv = addFormats(new Ajv2020({ allErrors: false, strict: false }));
    const findings: Finding[] = [];
    for (const op of operations()) {
      const schema = op.requestBody?.content['application/json']?.schema as
        { properties?: Record<string, { type?: string | string[] }> } | undefined;
      if (!schema?.properties) continue;
      const valid = ajv.compile({ ...schema, components: doc.components });
      const base = await build(op, 3000);
      if (!base.body || typeof base.body !== 'object') continue;
      for (const [name, prop] of Object.entries(schema.properties)) {
        const types = [prop.type ?? []].flat();
        const edges: unknown[] = [
          ...(types.includes('string') || types.length === 0 ? ['', ' '] : []),
          ...(types.includes('integer') || types.includes('number') ? [0, -1] : []),
          ...(types.includes('array') ? [[]] : []),
        ];
        for (const edge of edges) {
          const body = { ...base.body, [name]: edge };
          if (ISSUED_BY_SERVER.has(name) || !valid(body)) continue;
          // A key used once with another body is a conflict (422), not a refusal of this one.
          const headers = { ...base.headers };
          if ('idempotency-key' in headers) headers['idempotency-key'] = `edge-${op.id}-${name}-${String(edge)}`;
          const f = await send(op, { ...base, headers, body }).catch(failed(op));
          if (f) findings.push({ ...f, op: `${f.op} (${name}: ${JSON.stringify(edge)})` });
        }
      }
    }
    expect(report(findings)).toBe('');
  }, 120_000);
});
