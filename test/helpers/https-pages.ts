import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface HttpsPages {
  url: string;
  /** The certificate the platform must trust: give it as NODE_EXTRA_CA_CERTS. */
  caFile: string;
  hits: Map<string, number>;
  /** Requests being answered right now, and the most seen at once. */
  inFlight(): number;
  maxInFlight(): number;
  resetMax(): void;
  close(): Promise<void>;
}

/**
 * HTTPS pages on 127.0.0.1 with a self-signed certificate made here by openssl (valid for
 * 127.0.0.1 and localhost, one day). /page/N answers a small article; /slow/N the same after
 * `slowMs`; /redirect?to=URL answers 302 to URL. Any other path is a 404.
 */
export async function serveHttpsPages(dir: string, options: { slowMs?: number } = {}): Promise<HttpsPages> {
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  const hits = new Map<string, number>();
  let current = 0;
  let max = 0;
  const server = https.createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
    const p = (req.url ?? '/').split('?')[0];
    hits.set(p, (hits.get(p) ?? 0) + 1);
    if (p === '/redirect')
      return void res
        .writeHead(302, { location: new URL(req.url ?? '/', 'https://x').searchParams.get('to') ?? '/' })
        .end();
    const m = /^\/(page|slow)\/(\d+)$/.exec(p);
    if (!m) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    current++;
    max = Math.max(max, current);
    const send = () => {
      current--;
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<html><head><title>Page ${m[2]}</title></head><body><nav>Site menu</nav><article><h1>Page ${m[2]}</h1><p>${'This is the body text of page number ' + m[2] + '. '.repeat(1)}${'Tides and harbours are described at length here. '.repeat(5)}</p></article><footer>Footer ${m[2]}</footer></body></html>`,
        );
    };
    if (m[1] === 'slow') setTimeout(send, options.slowMs ?? 200);
    else send();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    caFile: cert,
    hits,
    inFlight: () => current,
    maxInFlight: () => max,
    resetMax: () => void (max = 0),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
