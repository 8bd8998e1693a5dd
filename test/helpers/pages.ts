import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PageServer {
  url: string;
  hits: Map<string, number>;
  close(): Promise<void>;
}

/** Serves fixed pages on 127.0.0.1 for URL-add tests; any other path is a 404. */
export async function servePages(
  pages: Record<string, { type?: string; body: string | Buffer; status?: number; headers?: Record<string, string> }>,
): Promise<PageServer> {
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const page = pages[path];
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res
      .writeHead(page.status ?? 200, { 'content-type': page.type ?? 'text/html; charset=utf-8', ...page.headers })
      .end(page.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
