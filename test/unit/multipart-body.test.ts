import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import os from 'node:os';
import { mkdtempSync } from 'node:fs';
import { Busboy } from '@fastify/busboy';
import { afterEach, describe, expect, it } from 'vitest';
import { buildForm } from '../../src/client/multipart.js';
import { createTransport } from '../../src/client/transport.js';

let server: http.Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

describe('multipart bodies written by the CLI', () => {
  it('arrive whole at a standard parser: fields, files streamed from disk, odd names, an exact Content-Length', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'facet-mp-'));
    const big = Buffer.alloc(3 * 1024 * 1024 + 7, 7);
    writeFileSync(path.join(dir, 'big.bin'), big);
    const odd = path.join(dir, 'résumé "final".txt');
    writeFileSync(odd, 'hello\r\n--not-a-boundary\r\n');
    const seen: {
      length?: string;
      fields: Record<string, string>;
      files: Array<{ field: string; name: string; bytes: Buffer }>;
    } = { fields: {}, files: [] };
    server = http.createServer((req, res) => {
      seen.length = req.headers['content-length'];
      let received = 0;
      req.on('data', (c: Buffer) => (received += c.length));
      const bb = new Busboy({ headers: req.headers as never });
      bb.on('field', (name: string, value: string) => (seen.fields[name] = value));
      bb.on('file', (field: string, stream: NodeJS.ReadableStream, name: string) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => seen.files.push({ field, name, bytes: Buffer.concat(chunks) }));
      });
      bb.on('finish', () => {
        expect(received).toBe(Number(seen.length));
        res.end('{"ok":true}');
      });
      req.pipe(bb);
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
    const t = createTransport({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      credentials: { apiKey: 'k' },
    });
    const form = await buildForm({ title: 'Quarterly — 季度', skipped: undefined }, [
      { field: 'file', file: path.join(dir, 'big.bin') },
      { field: 'file', file: odd },
    ]);
    expect(await t.call({ method: 'POST', path: '/upload', auth: 'bearer-key', form })).toEqual({ ok: true });
    expect(Number(seen.length)).toBe(form.length);
    expect(seen.fields).toEqual({ title: 'Quarterly — 季度' });
    expect(seen.files.map((f) => [f.field, f.name, f.bytes.length])).toEqual([
      ['file', 'big.bin', big.length],
      ['file', 'résumé %22final%22.txt', 25],
    ]);
    expect(seen.files[0].bytes.equals(big)).toBe(true);
    expect(seen.files[1].bytes.toString()).toBe('hello\r\n--not-a-boundary\r\n');
  });

  it('names a file that cannot be read before sending anything', async () => {
    await expect(buildForm({}, [{ field: 'file', file: '/nonexistent/x.pdf' }])).rejects.toThrow(
      'cannot read /nonexistent/x.pdf: no such file',
    );
  });
});
