import http from 'node:http';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMultipart } from '../../../src/server/http/multipart.js';
import { FORM_LIMITS, plainBoundary, splitTextForm } from '../../../src/server/http/text-form.js';
import { RequestValidationError } from '../../../src/server/errors.js';

// A small form of text fields that has fully arrived is read at once; every other body goes to
// busboy. The two must agree: the same fields, the same refusals.

let app: FastifyInstance;
let port: number;
let streamed = 0;

beforeAll(async () => {
  app = Fastify();
  await app.register(multipart, { limits: { ...FORM_LIMITS } });
  const tmpDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'facet-textform-')), 'tmp');
  app.addHook('preHandler', async (request) => {
    // Counts the requests busboy reads.
    const parts = request.parts.bind(request);
    request.parts = ((...args: Parameters<typeof parts>) => {
      streamed++;
      return parts(...args);
    }) as typeof request.parts;
  });
  app.post('/', async (request, reply) => {
    try {
      const form = await readMultipart(request, tmpDir, { fields: ['kind', 'prompt', 'size', 'ünï'], files: { file: 1 } });
      await form.discard();
      return { fields: form.fields, files: form.files.map((f) => f.filename) };
    } catch (err) {
      if (err instanceof RequestValidationError) return reply.code(422).send({ refused: err.message, detail: (err as unknown as { detail?: unknown }).detail ?? null });
      const e = err as { statusCode?: number; message: string };
      return reply.code(e.statusCode ?? 500).send({ failed: e.message });
    }
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(() => app.close());

/** POSTs the body whole (with its length) or chunked (no length: busboy reads it as a stream). */
function post(body: Buffer, contentType: string, chunked: boolean): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'content-type': contentType };
    if (!chunked) headers['content-length'] = body.length;
    const req = http.request({ host: '127.0.0.1', port, path: '/', method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    req.on('error', reject);
    if (chunked) {
      // In pieces, so the stream never has it all at once.
      for (let i = 0; i < body.length; i += 7) req.write(body.subarray(i, i + 7));
      req.end();
    } else req.end(body);
  });
}

/** The same body both ways: the answers must be the same; returns it and how many went to busboy. */
async function both(body: Buffer | string, boundary = 'b0und', contentType = `multipart/form-data; boundary=${boundary}`) {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const before = streamed;
  const whole = await post(bytes, contentType, false);
  const wholeStreamed = streamed - before;
  const inPieces = await post(bytes, contentType, true);
  expect(whole, bytes.toString('latin1').slice(0, 300)).toEqual(inPieces);
  return { answer: whole, busboyReadIt: wholeStreamed === 1 };
}

const form = (boundary: string, parts: Array<[string, string]>) => parts.map(([n, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`).join('') + `--${boundary}--\r\n`;

describe('a small form of text fields read at once', () => {
  it('reads the fields busboy reads, without busboy', async () => {
    const { answer, busboyReadIt } = await both(form('b0und', [['kind', 'illustration'], ['prompt', 'a lighthouse, "at dusk"\r\n--b0un\r\nwith ünïcödé 日本 😀'], ['size', '256x192']]));
    expect(answer).toEqual({ status: 200, body: { fields: { kind: 'illustration', prompt: 'a lighthouse, "at dusk"\r\n--b0un\r\nwith ünïcödé 日本 😀', size: '256x192' }, files: [] } });
    expect(busboyReadIt).toBe(false);
  });

  it('refuses an unknown field and a field given twice the way busboy does', async () => {
    const unknown = await both(form('b0und', [['kind', 'illustration'], ['colour', 'red']]));
    expect(unknown.answer.status).toBe(422);
    expect(unknown.busboyReadIt).toBe(false);
    const twice = await both(form('b0und', [['kind', 'a'], ['kind', 'b']]));
    expect(twice.answer.status).toBe(422);
  });

  it.each([
    ['a preamble', `preamble\r\n${form('b0und', [['kind', 'x']])}`],
    ['an epilogue and a file part', `${form('b0und', [['kind', 'x']]).replace('--b0und--\r\n', '')}--b0und\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--b0und--\r\nepilogue`],
    ['a field with its own content type', `--b0und\r\nContent-Disposition: form-data; name="kind"\r\nContent-Type: application/json\r\n\r\n{"a":1}\r\n--b0und--\r\n`],
    ['an RFC 5987 name', `--b0und\r\nContent-Disposition: form-data; name*=UTF-8''kind\r\n\r\nx\r\n--b0und--\r\n`],
    ['a non-ASCII name', Buffer.concat([Buffer.from('--b0und\r\nContent-Disposition: form-data; name="'), Buffer.from('ünï'), Buffer.from('"\r\n\r\nx\r\n--b0und--\r\n')])],
    ['a folded header', `--b0und\r\nContent-Disposition: form-data;\r\n name="kind"\r\n\r\nx\r\n--b0und--\r\n`],
    ['bare LF line breaks', `--b0und\nContent-Disposition: form-data; name="kind"\n\nx\n--b0und--\n`],
    ['no closing delimiter', `--b0und\r\nContent-Disposition: form-data; name="kind"\r\n\r\nx`],
    ['padding after a delimiter', `--b0und  \r\nContent-Disposition: form-data; name="kind"\r\n\r\nx\r\n--b0und--\r\n`],
    ['an empty form', `--b0und--\r\n`],
    ['garbage', 'not multipart at all'],
  ])('leaves a body with %s to busboy, with the same outcome', async (_what, body) => {
    const { busboyReadIt } = await both(body);
    expect(busboyReadIt).toBe(true);
  });

  it('leaves forms past the limits to busboy', async () => {
    const many = Array.from({ length: FORM_LIMITS.fields + 1 }, (_, i) => ['kind', String(i)] as [string, string]);
    const tooMany = await both(form('b0und', many));
    expect(tooMany.busboyReadIt).toBe(true);
    expect(tooMany.answer.status).toBe(422); // the second "kind" is refused before the count is
    // A body longer than the buffered reader takes goes to busboy too, and reads the same.
    const long = await both(form('b0und', [['kind', 'x'], ['prompt', 'p'.repeat(20_000)]]));
    expect(long.busboyReadIt).toBe(true);
    expect(long.answer.status).toBe(200);
  });

  it('takes a quoted boundary and a token name, and agrees with busboy on random forms', async () => {
    const quoted = await both(form('a:b=c', [['kind', 'x']]).replace(/name="kind"/, 'name=kind'), 'a:b=c', 'multipart/form-data; boundary="a:b=c"');
    expect(quoted).toEqual({ answer: { status: 200, body: { fields: { kind: 'x' }, files: [] } }, busboyReadIt: false });
    let seed = 11;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    const alphabet = ['a', 'Z', ' ', '\r', '\n', '\r\n', '-', '--', 'b0und', '"', 'é', '日', '😀', '\t', '='];
    const names = ['kind', 'prompt', 'size', 'other'];
    for (let round = 0; round < 40; round++) {
      const parts = Array.from({ length: 1 + rand(4) }, () => [names[rand(names.length)], Array.from({ length: rand(30) }, () => alphabet[rand(alphabet.length)]).join('')] as [string, string]);
      await both(form('b0und', parts));
    }
  });
});

describe('splitTextForm', () => {
  it('reads the boundary only from a plain multipart/form-data type', () => {
    expect(plainBoundary('multipart/form-data; boundary=abc')).toBe('abc');
    expect(plainBoundary('Multipart/Form-Data;boundary="a b"')).toBe('a b');
    expect(plainBoundary('multipart/form-data; boundary=abc; charset=utf-8')).toBeNull();
    expect(plainBoundary('multipart/mixed; boundary=abc')).toBeNull();
    expect(plainBoundary(undefined)).toBeNull();
  });

  it('splits the fields in their order, and a value that only looks like a delimiter stays in it', () => {
    expect(splitTextForm(Buffer.from(form('b', [['a', '1'], ['b', 'x\r\n-b'], ['a', '']])), 'b')).toEqual([['a', '1'], ['b', 'x\r\n-b'], ['a', '']]);
  });
});
