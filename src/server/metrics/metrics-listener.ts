import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServerMetrics } from './server-metrics.js';

export interface MetricsListener {
  url: string;
  close(): Promise<void>;
}

/**
 * `--metrics-port`: /metrics on a listener of its own (loopback by default), so the main port need
 * not expose it to the public and the scraper needs no credentials. It also answers GET /healthz
 * (`health`), and keeps answering until the process exits: the main listener closes after the drain
 * delay, and a liveness probe must not fail while the instance drains (docs/decisions.md).
 */
export async function listenForMetrics(
  metrics: ServerMetrics,
  where: { host: string; port: number },
  health: () => object,
): Promise<MetricsListener> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const read = req.method === 'GET' || req.method === 'HEAD';
    if (read && path === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(req.method === 'HEAD' ? undefined : JSON.stringify(health()));
      return;
    }
    if (path !== '/metrics' || !read) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          detail: `this port serves GET /metrics and /healthz only, not ${req.method} ${path}`,
          code: 'NOT_FOUND',
        }),
      );
      return;
    }
    metrics.text().then(
      (text) => {
        res.writeHead(200, { 'content-type': metrics.contentType });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (err: Error) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ detail: `metrics could not be collected: ${err.message}`, code: 'INTERNAL_ERROR' }));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(where.port, where.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = where.host.includes(':') ? `[${where.host}]` : where.host;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
