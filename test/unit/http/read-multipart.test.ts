import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import multipart from '@fastify/multipart';
import { expect, it } from 'vitest';
import { readMultipart } from '../../../src/server/http/multipart.js';

const boundary = 'facet-test-boundary';
function body(parts: Array<{ name: string; value: string; filename?: string }>): string {
  return (
    parts
      .map(
        (p) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"\r\nContent-Type: text/plain` : ''}\r\n\r\n${p.value}\r\n`,
      )
      .join('') + `--${boundary}--\r\n`
  );
}

it('reads a form of text fields without touching the disk, and makes the temporary folder for the first file', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'facet-readmp-'));
  const tmpDir = path.join(root, 'tmp');
  const app = Fastify();
  await app.register(multipart);
  app.post('/', async (request) => {
    const form = await readMultipart(request, tmpDir, { fields: ['kind', 'prompt'], files: { file: 1 } });
    const seen = {
      fields: form.fields,
      files: form.files.map((f) => [f.filename, f.size]),
      tmpDirExisted: existsSync(tmpDir),
    };
    await form.discard();
    return seen;
  });
  const post = (parts: Parameters<typeof body>[0]) =>
    app.inject({
      method: 'POST',
      url: '/',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body(parts),
    });

  const textOnly = await post([
    { name: 'kind', value: 'illustration' },
    { name: 'prompt', value: 'a lighthouse' },
  ]);
  expect(textOnly.json()).toEqual({
    fields: { kind: 'illustration', prompt: 'a lighthouse' },
    files: [],
    tmpDirExisted: false,
  });
  expect(existsSync(tmpDir)).toBe(false);

  const withFile = await post([
    { name: 'kind', value: 'illustration' },
    { name: 'file', value: 'notes', filename: 'notes.txt' },
  ]);
  expect(withFile.json()).toEqual({ fields: { kind: 'illustration' }, files: [['notes.txt', 5]], tmpDirExisted: true });
  expect(readdirSync(tmpDir)).toEqual([]); // discarded
  await app.close();
});
