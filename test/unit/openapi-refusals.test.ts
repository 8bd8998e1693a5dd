import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/server.js';

/**
 * Issue 41: what the server refuses as invalid, /openapi.json refuses too, so a client that follows
 * the document is never surprised. Each case is sent to the server (a 400/422 validation-type
 * refusal) and checked against the document's request schema with Ajv; a valid neighbour of each
 * passes both. The property run (test/e2e/openapi-properties.test.ts) checks the other direction.
 */
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
let server: RunningServer;
let doc: { paths: Record<string, Record<string, any>>; components?: object };
let ajv: Ajv2020;
let key: string;

beforeAll(async () => {
  server = await startServer({ memory: true, port: 0, logLevel: 'silent' });
  key = server.bootstrap.data.api_key!;
  doc = await (await fetch(`${server.url}/openapi.json`)).json();
  ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));
});
afterAll(() => server?.close());

function documentAccepts(path: string, body: unknown): boolean {
  const schema = doc.paths[path].post.requestBody.content['application/json'].schema;
  return ajv.validate({ ...schema, components: doc.components }, body) as boolean;
}

async function serverAnswer(path: string, body: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

const chatTool = (extra: object) => ({
  model: 'facet-echo',
  messages: [
    { role: 'user', content: 'hi' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
    },
    { role: 'tool', content: 'x', ...extra },
  ],
});

/** [path, refused body, what the server says, a valid neighbour]. */
const CASES: Array<[string, object, RegExp, object]> = [
  ['/v2/conversations', { query: '' }, /query must not be empty/, { query: 'what is new' }],
  ['/v2/conversations', { query: '   ' }, /query must not be empty/, { query: 'what is new' }],
  ['/v2/chat', { query: ' ' }, /query must not be empty/, { query: 'what is new' }],
  ['/api/v1/chat/completions', chatTool({}), /a tool message needs tool_call_id/, chatTool({ tool_call_id: 'c1' })],
  [
    '/api/v1/chat/completions',
    chatTool({ tool_call_id: '' }),
    /a tool message needs tool_call_id/,
    chatTool({ tool_call_id: 'c1' }),
  ],
  ['/api/v1/images/generations', { prompt: 'a', size: '00x00' }, /size/, { prompt: 'a', size: '64x64' }],
  ['/api/v1/images/generations', { prompt: 'a', size: '4096x1024' }, /size/, { prompt: 'a', size: '2048x1024' }],
  ['/api/v1/images/generations', { prompt: 'a', size: '63x100' }, /size/, { prompt: 'a', size: '100x100' }],
  ['/v2/livedocs', { name: ' ' }, /name/, { name: 'notes' }],
  ['/v2/mindmap', { query: ' \n' }, /blank/, { query: 'coffee' }],
  ['/v2/social/tweet/search', { query: '  ' }, /query/, { query: 'coffee' }],
  ['/v2/ppts', { query: ' ' }, /query/, { query: 'coffee' }],
];

describe('the document refuses what the server refuses', () => {
  it.each(CASES)('%s %j', async (path, refused, says, neighbour) => {
    const answer = await serverAnswer(path, refused);
    expect([400, 422], answer.text).toContain(answer.status);
    expect(answer.text).toMatch(says);
    expect(documentAccepts(path, refused), 'the document accepts what the server refused').toBe(false);
    expect(documentAccepts(path, neighbour), 'the document refuses the valid neighbour').toBe(true);
  });

  it('the rules a client reads: minLength and a pattern on required texts, tool_call_id on tool messages, size bounds', () => {
    const props = (path: string) =>
      doc.paths[path].post.requestBody.content['application/json'].schema.properties as Record<string, any>;
    expect(props('/v2/conversations').query).toMatchObject({ minLength: 1, maxLength: 2000, pattern: '\\S' });
    expect(props('/api/v1/images/generations').size.pattern).toMatch(/^\^/);
    const message = props('/api/v1/chat/completions').messages.items;
    expect(JSON.stringify(message.oneOf ?? message)).toMatch(/"required":\["tool_call_id"\]/);
  });
});
