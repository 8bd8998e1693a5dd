import http from 'node:http';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_LIMITS, readMultipart } from '../../../src/server/http/multipart.js';
import { RequestValidationError } from '../../../src/server/errors.js';

// Forms of text fields, read by busboy (the one parser of multipart bodies): what is read, what is
// refused, whether the body arrives whole or in pieces.

let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  app = Fastify();
  await app.register(multipart, { limits: { ...FORM_LIMITS } });
  const tmpDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'facet-textform-')), 'tmp');
  app.post('/', async (request, reply) => {
    try {
      const form = await readMultipart(request, tmpDir, {
        fields: ['kind', 'prompt', 'size', 'ünï'],
        files: { file: 1 },
      });
      await form.discard();
      return { fields: form.fields, files: form.files.map((f) => f.filename) };
    } catch (err) {
      if (err instanceof RequestValidationError)
        return reply
          .code(422)
          .send({ refused: err.message, detail: (err as unknown as { detail?: unknown }).detail ?? null });
      const e = err as { status?: number; statusCode?: number; message: string };
      return reply.code(e.status ?? e.statusCode ?? 500).send({ failed: e.message });
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
      res.on('end', () =>
        resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }),
      );
    });
    req.on('error', reject);
    if (chunked) {
      // In pieces, so the stream never has it all at once.
      for (let i = 0; i < body.length; i += 7) req.write(body.subarray(i, i + 7));
      req.end();
    } else req.end(body);
  });
}

/** The same body whole and in pieces: the answers must be the same; returns it. */
async function both(
  body: Buffer | string,
  boundary = 'b0und',
  contentType = `multipart/form-data; boundary=${boundary}`,
) {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const whole = await post(bytes, contentType, false);
  const inPieces = await post(bytes, contentType, true);
  expect(whole, bytes.toString('latin1').slice(0, 300)).toEqual(inPieces);
  return whole;
}

const form = (boundary: string, parts: Array<[string, string]>) =>
  parts.map(([n, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`).join('') +
  `--${boundary}--\r\n`;

describe('a form of text fields', () => {
  it('reads the fields, a value that only looks like a delimiter staying in its field', async () => {
    const answer = await both(
      form('b0und', [
        ['kind', 'illustration'],
        ['prompt', 'a lighthouse, "at dusk"\r\n--b0un\r\nwith ünïcödé 日本 😀'],
        ['size', '256x192'],
      ]),
    );
    expect(answer).toEqual({
      status: 200,
      body: {
        fields: {
          kind: 'illustration',
          prompt: 'a lighthouse, "at dusk"\r\n--b0un\r\nwith ünïcödé 日本 😀',
          size: '256x192',
        },
        files: [],
      },
    });
  });

  it('refuses an unknown field and a field given twice', async () => {
    const unknown = await both(
      form('b0und', [
        ['kind', 'illustration'],
        ['colour', 'red'],
      ]),
    );
    expect(unknown.status).toBe(422);
    const twice = await both(
      form('b0und', [
        ['kind', 'a'],
        ['kind', 'b'],
      ]),
    );
    expect(twice.status).toBe(422);
  });

  it.each([
    ['a preamble', `preamble\r\n${form('b0und', [['kind', 'x']])}`, 200],
    [
      'an epilogue and a file part',
      `${form('b0und', [['kind', 'x']]).replace('--b0und--\r\n', '')}--b0und\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--b0und--\r\nepilogue`,
      200,
    ],
    [
      'an unknown RFC 5987 name',
      `--b0und\r\nContent-Disposition: form-data; name*=UTF-8''colour\r\n\r\nx\r\n--b0und--\r\n`,
      422,
    ],
    ['no closing delimiter', `--b0und\r\nContent-Disposition: form-data; name="kind"\r\n\r\nx`, 422],
    ['garbage', 'not multipart at all', 422],
  ])('answers a body with %s the same whole or in pieces', async (_what, body, status) => {
    expect((await both(body)).status).toBe(status);
  });

  it.each([
    [
      'a field with its own content type',
      `--b0und\r\nContent-Disposition: form-data; name="kind"\r\nContent-Type: application/json\r\n\r\n{"a":1}\r\n--b0und--\r\n`,
    ],
    [
      'a non-ASCII name',
      Buffer.concat([
        Buffer.from('--b0und\r\nContent-Disposition: form-data; name="'),
        Buffer.from('ünï'),
        Buffer.from('"\r\n\r\nx\r\n--b0und--\r\n'),
      ]),
    ],
    ['a folded header', `--b0und\r\nContent-Disposition: form-data;\r\n name="kind"\r\n\r\nx\r\n--b0und--\r\n`],
    ['bare LF line breaks', `--b0und\nContent-Disposition: form-data; name="kind"\n\nx\n--b0und--\n`],
    ['padding after a delimiter', `--b0und  \r\nContent-Disposition: form-data; name="kind"\r\n\r\nx\r\n--b0und--\r\n`],
    ['an empty form', `--b0und--\r\n`],
  ])('answers a body with %s the same whole or in pieces, never with a 500', async (_what, body) => {
    expect((await both(body)).status).toBeLessThan(500);
  });

  it('refuses forms past the limits and reads a long field', async () => {
    const many = Array.from({ length: FORM_LIMITS.fields + 1 }, (_, i) => ['kind', String(i)] as [string, string]);
    expect((await both(form('b0und', many))).status).toBe(422); // the second "kind" is refused before the count is
    const distinct = Array.from({ length: FORM_LIMITS.fields + 1 }, (_, i) => [`f${i}`, 'x'] as [string, string]);
    expect((await both(form('b0und', distinct))).status).toBe(422); // f0 is unknown: refused first
    expect(
      (
        await both(
          form('b0und', [
            ['kind', 'x'],
            ['prompt', 'p'.repeat(20_000)],
          ]),
        )
      ).status,
    ).toBe(200);
    expect((await both(form('b0und', [['prompt', 'p'.repeat(FORM_LIMITS.fieldSize + 1)]]))).status).toBe(413);
  });

  it('takes a quoted boundary and a token name, and answers random forms the same whole or in pieces', async () => {
    const quoted = await both(
      form('a:b=c', [['kind', 'x']]).replace(/name="kind"/, 'name=kind'),
      'a:b=c',
      'multipart/form-data; boundary="a:b=c"',
    );
    expect(quoted).toEqual({ status: 200, body: { fields: { kind: 'x' }, files: [] } });
    let seed = 11;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    const alphabet = ['a', 'Z', ' ', '\r', '\n', '\r\n', '-', '--', 'b0und', '"', 'é', '日', '😀', '\t', '='];
    const names = ['kind', 'prompt', 'size', 'other'];
    for (let round = 0; round < 40; round++) {
      const parts = Array.from(
        { length: 1 + rand(4) },
        () =>
          [
            names[rand(names.length)],
            Array.from({ length: rand(30) }, () => alphabet[rand(alphabet.length)]).join(''),
          ] as [string, string],
      );
      expect((await both(form('b0und', parts))).status).toBeLessThan(500);
    }
  });
});
