import type { ServerResponse } from 'node:http';
import { createGzip } from 'node:zlib';

/**
 * Answers with 400 MB of chunked HTML made only as fast as the reader takes it, so the test never
 * holds it; `sent()` says how much actually left, to show that the reader stopped early.
 */
export function hugePage(chunk: Buffer, totalBytes = 400 * 1024 * 1024) {
  let bytesSent = 0;
  return {
    sent: () => bytesSent,
    serve(res: ServerResponse): void {
      let left = Math.floor(totalBytes / chunk.length);
      res.writeHead(200, { 'content-type': 'text/html' });
      res.on('close', () => (left = 0));
      const pump = () => {
        while (left > 0) {
          left--;
          bytesSent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    },
  };
}

/**
 * A gzip body that inflates to `inflatedBytes` of zeros (a "gzip bomb"): made by streaming 1 MiB of
 * zeros through zlib, so the test holds only the small compressed result.
 */
export async function gzipBomb(inflatedBytes: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on('data', (c: Buffer) => out.push(c));
  const done = new Promise<void>((resolve, reject) => gzip.on('end', resolve).on('error', reject));
  const zeros = Buffer.alloc(1024 * 1024);
  for (let left = inflatedBytes; left > 0; left -= zeros.length) {
    if (!gzip.write(left >= zeros.length ? zeros : zeros.subarray(0, left)))
      await new Promise((r) => gzip.once('drain', r));
  }
  gzip.end();
  await done;
  return Buffer.concat(out);
}
