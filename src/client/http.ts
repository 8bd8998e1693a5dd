import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';

/**
 * HTTP for the CLI on node:http/https. The CLI makes a handful of requests per run, so what counts
 * is start-up: node:http is part of Node's snapshot, while undici from node_modules (or the one
 * behind the global fetch) added about 20-44 MB and tens of milliseconds to every command
 * (bench/cli-startup). Same contract as before: a header timeout, an idle timeout on the body,
 * an abort signal, the body as a stream.
 */
export interface HttpResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  /** A socket's IncomingMessage, or any readable body (an in-process request's, see HttpRequestFn). */
  body: Readable;
}

export interface HttpRequestOptions {
  method: string;
  headers: Record<string, string>;
  /** A string or bytes, or a stream with its length given in the headers. */
  body?: string | Buffer | Readable;
  /** Time to the response's headers. */
  headersTimeout: number;
  /** Longest silence while the body arrives. */
  bodyTimeout: number;
  signal?: AbortSignal;
}

/** A request that got no answer in time; `code` is what the callers print. */
export class HttpTimeoutError extends Error {
  constructor(
    readonly code: 'HEADERS_TIMEOUT' | 'BODY_TIMEOUT',
    ms: number,
  ) {
    super(code === 'HEADERS_TIMEOUT' ? `no answer within ${ms / 1000} s` : `the answer stalled for ${ms / 1000} s`);
    this.name = 'HttpTimeoutError';
  }
}

/**
 * How the client sends one request: httpRequest over a socket by default; the platform's own MCP
 * endpoint gives its in-process client one that hands requests to the server directly.
 */
export type HttpRequestFn = (url: string | URL, options: HttpRequestOptions) => Promise<HttpResponse>;

export async function httpRequest(url: string | URL, options: HttpRequestOptions): Promise<HttpResponse> {
  const target = typeof url === 'string' ? new URL(url) : url;
  const transport = target.protocol === 'https:' ? await import('node:https') : await import('node:http');
  return new Promise<HttpResponse>((resolve, reject) => {
    const req = transport.request(target, { method: options.method, headers: options.headers, signal: options.signal });
    const headersTimer = setTimeout(
      () => req.destroy(new HttpTimeoutError('HEADERS_TIMEOUT', options.headersTimeout)),
      options.headersTimeout,
    );
    req.once('error', (err) => {
      clearTimeout(headersTimer);
      reject(err);
    });
    req.once('response', (res) => {
      clearTimeout(headersTimer);
      res.setTimeout(options.bodyTimeout, () => res.destroy(new HttpTimeoutError('BODY_TIMEOUT', options.bodyTimeout)));
      resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: res });
    });
    const body = options.body;
    if (body === undefined) req.end();
    else if (typeof body === 'string' || Buffer.isBuffer(body)) req.end(body);
    else {
      body.once('error', (err) => req.destroy(err));
      body.pipe(req);
    }
  });
}

/** The whole body of a response. */
export async function readBody(res: Readable | IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
