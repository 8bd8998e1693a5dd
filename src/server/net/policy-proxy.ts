import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { OutboundFetchError } from './errors.js';
import { pinnedLookup } from './pinned-lookup.js';
import type { CheckedTarget, FetchPolicy } from './policy.js';
import { formatBytes } from './read-capped.js';

/** What one page may make the browser download through its proxy, the page and everything it loads. */
export const BROWSER_MAX_BYTES = 100 * 1024 * 1024;

/** A request the proxy refused: the authority (`host:port`) and the policy's message. */
export interface ProxyRefusal {
  authority: string;
  url: string;
  message: string;
}

export interface PolicyProxy {
  /** `http://127.0.0.1:PORT`, for the browser's --proxy-server. */
  url: string;
  refusals: ProxyRefusal[];
  /** Set once the browser downloaded more than the proxy's budget: every connection was then cut. */
  overBudget(): string | undefined;
  close(): Promise<void>;
}

/** The response header that carries a refusal to the browser's caller. */
export const REFUSED_HEADER = 'x-facet-refused';

/** `host:port` with the scheme's default port filled in, as both the proxy and its caller see it. */
export function authorityOf(url: URL): string {
  return `${url.hostname}:${url.port || (url.protocol === 'https:' || url.protocol === 'wss:' ? 443 : 80)}`;
}

const HOP_BY_HOP = [
  'connection',
  'proxy-connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
];

function withoutHopByHop(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = { ...headers };
  for (const h of HOP_BY_HOP) delete out[h];
  return out;
}

/**
 * A forward proxy on 127.0.0.1 that puts a browser under the outbound fetch policy. Plain HTTP
 * requests and CONNECT tunnels (HTTPS, WebSockets) alike: the proxy resolves the host once, checks
 * every address, and connects to a checked address only — the browser itself never resolves or
 * connects anywhere but here, so its redirects and subrequests cannot skip the check and there is
 * no DNS-rebinding gap. Refusals answer 403 with the policy's message and are recorded. What comes
 * back is counted, plain and tunnelled alike: past `maxBytes` every connection is cut and further
 * requests fail, so a page cannot make the browser download without end.
 */
export async function startPolicyProxy(
  policy: FetchPolicy,
  options: { idleTimeoutMs?: number; maxBytes?: number } = {},
): Promise<PolicyProxy> {
  const idle = options.idleTimeoutMs ?? 30_000;
  const maxBytes = options.maxBytes ?? BROWSER_MAX_BYTES;
  const refusals: ProxyRefusal[] = [];
  const sockets = new Set<net.Socket>();
  let downloaded = 0;
  let overBudget: string | undefined;
  const count = (n: number) => {
    downloaded += n;
    if (downloaded <= maxBytes || overBudget) return;
    overBudget = `the page and what it loads passed ${formatBytes(maxBytes)}; the browser's downloads were stopped there`;
    for (const s of sockets) s.destroy();
  };
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.setTimeout(idle, () => s.destroy());
    s.once('close', () => sockets.delete(s));
  };

  /** The checked target, or null once the refusal has been answered. */
  const check = async (url: URL, refuse: (status: number, message: string) => void): Promise<CheckedTarget | null> => {
    try {
      return await policy.check(url);
    } catch (err) {
      const e = err as Error;
      const refused = err instanceof OutboundFetchError && (err.kind === 'refused' || err.kind === 'invalid-url');
      if (refused) refusals.push({ authority: authorityOf(url), url: url.href, message: e.message });
      refuse(refused ? 403 : 502, e.message);
      return null;
    }
  };

  const server = http.createServer(async (req, res) => {
    // A browser that goes away mid-request must not take the server down with an unhandled error.
    req.on('error', () => res.destroy());
    res.on('error', () => undefined);
    if (overBudget) return void res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' }).end(overBudget);
    let url: URL;
    try {
      url = new URL(req.url ?? '');
      if (url.protocol !== 'http:') throw new Error('not http');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('this proxy forwards absolute http:// URLs only');
      return;
    }
    const target = await check(url, (status, message) => {
      res
        .writeHead(status, {
          'content-type': 'text/plain; charset=utf-8',
          [REFUSED_HEADER]: message.replace(/[^\x20-\x7e]/g, '?'),
        })
        .end(message);
    });
    if (!target) return;
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: url.pathname + url.search,
        headers: withoutHopByHop(req.headers),
        lookup: pinnedLookup(target.addresses),
        timeout: idle,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, withoutHopByHop(up.headers));
        up.on('error', () => res.destroy());
        up.on('data', (chunk: Buffer) => count(chunk.length));
        up.pipe(res);
      },
    );
    upstream.on('socket', track);
    upstream.on('timeout', () => upstream.destroy(new Error('upstream timed out')));
    upstream.on('error', (err) => {
      if (!res.headersSent)
        res
          .writeHead(502, { 'content-type': 'text/plain' })
          .end(`cannot fetch ${url.href}: ${(err as NodeJS.ErrnoException).code ?? err.message}`);
      else res.destroy();
    });
    req.pipe(upstream);
  });

  server.on('connection', track);
  server.on('connect', async (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    // eslint-disable-next-line prefer-const -- assigned once the upstream connects, after these handlers
    let upstream: net.Socket | undefined;
    client.on('error', () => upstream?.destroy());
    client.on('close', () => upstream?.destroy());
    if (overBudget) return void client.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n');
    let url: URL;
    try {
      url = new URL(`https://${req.url ?? ''}/`);
    } catch {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const target = await check(url, (status, message) => {
      client.end(
        `HTTP/1.1 ${status} ${status === 403 ? 'Forbidden' : 'Bad Gateway'}\r\n${REFUSED_HEADER}: ${message.replace(/[^\x20-\x7e]/g, '?')}\r\ncontent-length: 0\r\n\r\n`,
      );
    });
    if (!target) return;
    if (client.destroyed) return;
    const tunnel = net.connect(
      { host: target.hostname, port: target.port, lookup: pinnedLookup(target.addresses) },
      () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) tunnel.write(head);
        tunnel.on('data', (chunk: Buffer) => count(chunk.length));
        tunnel.pipe(client);
        client.pipe(tunnel);
      },
    );
    upstream = tunnel;
    track(tunnel);
    tunnel.on('error', () => client.destroy());
    tunnel.on('close', () => client.destroy());
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refusals,
    overBudget: () => overBudget,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}
