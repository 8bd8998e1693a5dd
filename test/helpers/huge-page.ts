import type { ServerResponse } from 'node:http';

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
