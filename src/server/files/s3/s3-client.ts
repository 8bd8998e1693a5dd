import aws4 from 'aws4';
import type { Readable } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import { ObjectStoreError } from '../file-store.js';
import { describeS3, type S3Config } from './s3-config.js';

/** RFC 3986 encoding of one path segment, the form SigV4 signs (aws4 re-encodes the same way). */
function encodeSegment(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
}

export interface S3Request {
  method: 'GET' | 'PUT' | 'DELETE' | 'HEAD';
  /** Object key inside the bucket (the prefix already applied), or null for the bucket itself. */
  key: string | null;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** A small body is signed with its hash; a stream is sent UNSIGNED-PAYLOAD with its length. */
  body?: Buffer | { stream: Readable; length: number };
}

/**
 * SigV4-signed requests to one bucket of an S3-compatible store (aws4 signs, undici sends). This is
 * the server's own infrastructure, not a fetch on a user's behalf: the outbound fetch policy does not
 * apply, but every request has a timeout and every refusal becomes an ObjectStoreError that names it.
 */
export class S3Client {
  private readonly url: URL;

  constructor(readonly config: S3Config) {
    this.url = new URL(config.endpoint);
  }

  private target(key: string | null): { host: string; path: string } {
    const keyPath = key === null ? '' : key.split('/').map(encodeSegment).join('/');
    if (this.config.pathStyle) return { host: this.url.host, path: `${this.url.pathname.replace(/\/+$/, '')}/${this.config.bucket}${key === null ? '' : `/${keyPath}`}` };
    return { host: `${this.config.bucket}.${this.url.host}`, path: `${this.url.pathname.replace(/\/+$/, '')}/${keyPath}` };
  }

  private credentials() {
    return { accessKeyId: this.config.accessKeyId, secretAccessKey: this.config.secretAccessKey, sessionToken: this.config.sessionToken };
  }

  async send(req: S3Request): Promise<Dispatcher.ResponseData> {
    const { host, path } = this.target(req.key);
    const qs = new URLSearchParams(req.query ?? {}).toString();
    const headers: Record<string, string> = { ...req.headers };
    const small = Buffer.isBuffer(req.body) ? req.body : undefined;
    const streamed = req.body && !Buffer.isBuffer(req.body) ? req.body : undefined;
    if (streamed) {
      headers['x-amz-content-sha256'] = 'UNSIGNED-PAYLOAD';
      headers['content-length'] = String(streamed.length);
    }
    if (req.method === 'PUT') headers['content-type'] ??= 'application/octet-stream';
    const signed = aws4.sign(
      { host, path: qs ? `${path}?${qs}` : path, method: req.method, service: 's3', region: this.config.region, headers, body: small },
      this.credentials(),
    );
    const sent = { ...(signed.headers as Record<string, string>) };
    // undici sets Host from the URL itself (the same value that was signed).
    delete sent.Host;
    delete sent.host;
    const what = `${req.method} ${req.key ?? '(bucket)'} on ${describeS3(this.config)}`;
    try {
      return await request(`${this.url.protocol}//${host}${signed.path}`, {
        method: req.method,
        headers: sent,
        body: small ?? streamed?.stream,
        headersTimeout: this.config.timeoutMs,
        bodyTimeout: this.config.timeoutMs,
      });
    } catch (err) {
      const e = err as Error & { code?: string };
      throw new ObjectStoreError(`the object store could not be reached (${what}): ${e.code ?? e.message}`);
    }
  }

  /** Throws the store's refusal as an ObjectStoreError with its S3 code and message. */
  async fail(res: Dispatcher.ResponseData, req: Pick<S3Request, 'method' | 'key'>): Promise<never> {
    const text = req.method === 'HEAD' ? '' : await res.body.text().catch(() => '');
    const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1];
    const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1];
    throw new ObjectStoreError(
      `the object store refused ${req.method} ${req.key ?? '(bucket)'} on ${describeS3(this.config)}: HTTP ${res.statusCode}${code ? ` ${code}` : ''}${message ? `: ${unescapeXml(message)}` : ''}`,
    );
  }

  /** A presigned GET of `key` valid for `expiresIn` seconds (SigV4 query signing), with response header overrides. */
  presignGet(key: string, expiresIn: number, overrides: Record<string, string> = {}): string {
    const { host, path } = this.target(key);
    const qs = new URLSearchParams({ 'X-Amz-Expires': String(Math.max(1, Math.min(604_800, Math.floor(expiresIn)))), ...overrides }).toString();
    const signed = aws4.sign({ host, path: `${path}?${qs}`, method: 'GET', service: 's3', region: this.config.region, signQuery: true }, this.credentials());
    return `${this.url.protocol}//${host}${signed.path}`;
  }
}

export function unescapeXml(s: string): string {
  return s.replace(/&(lt|gt|quot|apos|amp|#\d+|#x[0-9a-f]+);/gi, (_, e: string) => {
    const named: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' };
    if (named[e.toLowerCase()]) return named[e.toLowerCase()];
    return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
  });
}
