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

async function exercise(op: Operation, seed: number): Promise<Finding | undefined> {
  const gen = createGenerator({ seed, refDepthMax: 3, maxItems: 3, maxLength: 40 } as never);
  const withDefs = (schema: object) => ({ ...schema, components: doc.components });
  const params = op.parameters ?? [];
  const pick = async (where: string) =>
    (await gen.generate(
      withDefs(objectOf(params.filter((q) => q.in === where && !ISSUED_BY_SERVER.has(q.name)))) as never,
    )) as Record<string, unknown>;
  const [pathValues, query, headers] = [await pick('path'), await pick('query'), await pick('header')];
  let url = op.path.replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(String(pathValues[name] ?? 'x')));
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query))
    for (const one of Array.isArray(v) ? v : [v])
      search.append(k, typeof one === 'object' ? JSON.stringify(one) : String(one));
  if ([...search].length) url += `?${search}`;
  const json = op.requestBody?.content['application/json'];
  const generated = json
    ? ((await gen.generate(withDefs(json.schema) as never)) as Record<string, unknown>)
    : undefined;
  if (generated && typeof generated === 'object') for (const name of ISSUED_BY_SERVER) delete generated[name];
  // A page load waits for a selector up to its timeout (30 s by default): a short one keeps the run short.
  if (op.id === 'web.extract' && generated) generated.timeout = 3000;
  const body = generated === undefined ? undefined : JSON.stringify(generated);
  const init: RequestInit = {
    method: op.method,
    headers: {
      ...Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)])),
      ...credentials(op),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body,
    signal: AbortSignal.timeout(30_000),
  };
  const res = await p.fetch(url, init);
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

describe('every operation of /openapi.json with data its schemas allow', () => {
  it('answers no 5xx and refuses none of it as invalid', async () => {
    const ops = operations().filter((op) => !op.requestBody || op.requestBody.content['application/json']);
    expect(ops.length).toBeGreaterThan(100);
    const findings: Finding[] = [];
    for (const op of ops)
      for (let i = 0; i < EXAMPLES; i++) {
        const f = await exercise(op, 1000 + i).catch((e: Error) => ({
          op: op.id,
          status: 0,
          request: '',
          answer: e.message,
        }));
        if (f) findings.push(f);
      }
    expect(findings.map((f) => `${f.op} → ${f.status}\n  ${f.request}\n  ${f.answer}`).join('\n')).toBe('');
  }, 600_000);
});
