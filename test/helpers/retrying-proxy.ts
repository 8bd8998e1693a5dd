import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RetryingProxy {
  url: string;
  /** Requests answered to clients, and how many attempts went to the next upstream, by why. */
  stats: { answered: number; retried: Record<string, number> };
  /** What the balancer itself logged of failed attempts, where it keeps a log (nginx's error.log). */
  errors?(): string;
  close(): Promise<void>;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Like nginx's max_fails=1 fail_timeout: an upstream that refused a connection is skipped this long. */
const FAIL_TIMEOUT_MS = 10_000;
const MAX_TRIES = 3;

/**
 * A round-robin balancer in front of facet instances that retries as docs/deploy.md's nginx.conf
 * does (`proxy_next_upstream error timeout`, no `non_idempotent`, no `http_503`): a request it could
 * not send (connection refused) goes to the next upstream whatever its method; GET, HEAD and
 * OPTIONS also after an error; a 503 is passed on as facet wrote it; a POST that was sent is never
 * sent again. One connection per
 * request, as that config has no `keepalive` in its upstream block (it says why); answers (event
 * streams too) are piped through.
 */
export async function retryingProxy(initial: string[]): Promise<RetryingProxy> {
  const upstreams = [...initial];
  let next = 0;
  const failedUntil = new Map<string, number>();
  const agent = new http.Agent({ keepAlive: false, maxSockets: 64 });
  const stats = { answered: 0, retried: {} as Record<string, number> };
  const note = (why: string) => (stats.retried[why] = (stats.retried[why] ?? 0) + 1);

  const pick = (tried: Set<string>): string | undefined => {
    const now = Date.now();
    for (let i = 0; i < upstreams.length; i++) {
      const u = upstreams[next++ % upstreams.length];
      if (!tried.has(u) && (failedUntil.get(u) ?? 0) <= now) return u;
    }
    return upstreams.find((u) => !tried.has(u));
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const tried = new Set<string>();
      const attempt = () => {
        const upstream = tried.size < MAX_TRIES ? pick(tried) : undefined;
        if (!upstream) {
          res.writeHead(502, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ detail: 'no upstream could answer', code: 'BAD_GATEWAY' }));
          return;
        }
        tried.add(upstream);
        const target = new URL(req.url ?? '/', upstream);
        const headers = { ...req.headers, host: target.host, connection: 'close' };
        delete headers['content-length'];
        const up = http.request(target, {
          method: req.method,
          headers: { ...headers, 'content-length': String(body.length) },
          agent,
        });
        let sent = false;
        up.on('socket', (socket) => {
          // A kept-alive connection: the request goes out at once; a new one once it connects.
          if (!socket.connecting) sent = true;
          else socket.once('connect', () => (sent = true));
        });
        up.on('response', (r) => {
          stats.answered++;
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
          r.on('error', () => res.destroy());
        });
        up.on('error', (err: NodeJS.ErrnoException) => {
          if (err.code === 'ECONNREFUSED') failedUntil.set(upstream, Date.now() + FAIL_TIMEOUT_MS);
          if (res.headersSent) return res.destroy();
          if (!sent || err.code === 'ECONNREFUSED' || IDEMPOTENT.has(req.method ?? '')) {
            note(err.code ?? 'error');
            return attempt();
          }
          res.writeHead(502, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({ detail: `upstream failed after the request was sent: ${err.code}`, code: 'BAD_GATEWAY' }),
          );
        });
        up.end(body);
      };
      attempt();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
