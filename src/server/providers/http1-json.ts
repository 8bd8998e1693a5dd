import net from 'node:net';
import tls from 'node:tls';
import { errors as undiciErrors } from 'undici';

/**
 * A small HTTP/1.1 keep-alive client for the gateway's non-streamed upstream calls: one POST, one
 * whole answer. Every model call of the gateway pays for its client, and undici's (a Request object,
 * header validation, its pool layers, the llhttp parser in WebAssembly) was the largest share of the
 * gateway's own CPU after the platform's HTTP server. This one writes the request head and body in
 * one write and reads the answer with a parser that knows only what a JSON answer needs:
 * Content-Length, chunked and read-until-close bodies, 1xx heads skipped, keep-alive.
 *
 * It fails the way undici's dispatch did, with undici's own error classes (socket closed, timeouts,
 * a pool that is closed), so callers and tests see the same errors; streams keep undici.
 */

export interface Http1Request {
  /** http(s)://host[:port] */
  origin: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  /** How long the answer's head may take after the request was sent, and the longest pause in its body. */
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface Http1Response {
  status: number;
  /** Lower-case names; a header sent more than once gives an array, as in Node and undici. */
  headers: Record<string, string | string[]>;
  body: Buffer;
}

export interface Http1PoolOptions {
  /** How long an idle connection is kept when the server gives no Keep-Alive timeout. */
  keepAliveMs: number;
  /** Connections per origin; more requests wait for one. */
  connections: number;
  connectTimeoutMs?: number;
  /** Extra TLS options for https origins (a private CA); the system's CAs otherwise, as undici. */
  tls?: Pick<tls.ConnectionOptions, 'ca'>;
}

/** The largest response head accepted (undici's default limit is 16 KiB; Node's too). */
const MAX_HEAD_BYTES = 64 * 1024;
/** A server's Keep-Alive timeout is cut by this much, so the client never reuses a connection the server is closing (undici does the same). */
const KEEP_ALIVE_MARGIN_MS = 1_000;
const CRLF2 = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');

/** A header value must not carry line breaks (a request could be split); undici refuses them too. */
const BAD_HEADER_VALUE = /[\r\n\0]/;

type Waiter = (conn: Connection | null) => void;

/** One answer being read: the response parser and what to call when it ends. */
class Exchange {
  status = 0;
  headers: Record<string, string | string[]> = {};
  private head: Buffer | null = null;
  private headScanned = 0;
  private chunks: Buffer[] = [];
  mode: 'head' | 'length' | 'chunked' | 'eof' | 'done' = 'head';
  private remaining = 0;
  private chunkState: 'size' | 'data' | 'data-end' | 'trailers' = 'size';
  private pending: Buffer | null = null;
  /** False when the connection cannot carry another request after this answer. */
  reusable = true;
  keepAliveMs: number | undefined;
  private timer: NodeJS.Timeout;
  private settled = false;

  constructor(
    private readonly timeoutMs: number,
    private readonly onDone: (err: unknown, ex: Exchange) => void,
    private readonly signal?: AbortSignal,
  ) {
    this.timer = setTimeout(() => this.fail(this.status === 0 ? new undiciErrors.HeadersTimeoutError() : new undiciErrors.BodyTimeoutError()), timeoutMs);
    if (signal) signal.addEventListener('abort', this.onAbort);
  }

  private onAbort = () => this.fail(this.signal!.reason);

  get body(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
  }

  fail(err: unknown): void {
    if (this.settled) return;
    this.reusable = false;
    this.finish(err);
  }

  private finish(err: unknown): void {
    this.settled = true;
    this.mode = 'done';
    clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this.onAbort);
    this.onDone(err, this);
  }

  /** The connection closed: a body read until close ends here; anything else was cut. */
  ended(): void {
    if (this.settled) return;
    this.reusable = false;
    if (this.mode === 'eof') this.finish(null);
    else this.fail(new undiciErrors.SocketError('other side closed'));
  }

  data(chunk: Buffer): void {
    if (this.settled) {
      // Bytes after a complete answer: the connection is out of step, never reuse it.
      this.reusable = false;
      return;
    }
    try {
      this.parse(chunk);
    } catch (err) {
      this.fail(err);
    }
  }

  private parse(chunk: Buffer): void {
    if (this.mode === 'head') {
      const buf = this.head ? Buffer.concat([this.head, chunk]) : chunk;
      const end = buf.indexOf(CRLF2, Math.max(0, this.headScanned - 3));
      if (end < 0) {
        if (buf.length > MAX_HEAD_BYTES) throw new undiciErrors.HeadersOverflowError();
        this.head = buf;
        this.headScanned = buf.length;
        return;
      }
      this.head = null;
      this.headScanned = 0;
      const rest = buf.subarray(end + 4);
      if (!this.readHead(buf.toString('latin1', 0, end))) return rest.length ? this.parse(rest) : undefined;
      this.timer.refresh();
      // readHead has chosen how the body is read (TypeScript still narrows mode to 'head' here).
      if ((this.mode as Exchange['mode']) === 'done') {
        if (rest.length) this.reusable = false;
        return this.finish(null);
      }
      if (rest.length) this.body_(rest);
      return;
    }
    this.timer.refresh();
    this.body_(chunk);
  }

  /** Reads a status line and headers; false for an interim (1xx) head, which is skipped. */
  private readHead(text: string): boolean {
    const lines = text.split('\r\n');
    const m = /^HTTP\/1\.([01]) (\d{3})(?: |$)/.exec(lines[0]);
    if (!m) throw new undiciErrors.HTTPParserError('Response does not match the HTTP/1.1 protocol');
    const status = Number(m[2]);
    if (status >= 100 && status < 200 && status !== 101) return false;
    const headers: Record<string, string | string[]> = {};
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i];
      const colon = line.indexOf(':');
      if (colon <= 0) throw new undiciErrors.HTTPParserError('Invalid header in the response');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      const had = headers[name];
      headers[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
    }
    this.status = status;
    this.headers = headers;
    const one = (name: string) => {
      const v = headers[name];
      return Array.isArray(v) ? v.join(', ') : v;
    };
    const connection = one('connection')?.toLowerCase() ?? '';
    this.reusable = m[1] === '1' ? !/\bclose\b/.test(connection) : /\bkeep-alive\b/.test(connection);
    const hint = /\btimeout=(\d+)/i.exec(one('keep-alive') ?? '');
    if (hint) this.keepAliveMs = Number(hint[1]) * 1000 - KEEP_ALIVE_MARGIN_MS;
    const coding = one('transfer-encoding');
    const length = one('content-length');
    if (status === 204 || status === 304) this.mode = 'done';
    else if (coding !== undefined && /(?:^|,)\s*chunked\s*$/i.test(coding)) this.mode = 'chunked';
    else if (length !== undefined) {
      if (!/^\d+$/.test(length)) throw new undiciErrors.HTTPParserError('Invalid content-length in the response');
      this.remaining = Number(length);
      this.mode = this.remaining === 0 ? 'done' : 'length';
    } else {
      this.mode = 'eof';
      this.reusable = false;
    }
    return true;
  }

  private body_(chunk: Buffer): void {
    if (this.mode === 'eof') {
      this.chunks.push(chunk);
    } else if (this.mode === 'length') {
      if (chunk.length >= this.remaining) {
        if (chunk.length > this.remaining) this.reusable = false;
        this.chunks.push(chunk.length > this.remaining ? chunk.subarray(0, this.remaining) : chunk);
        this.remaining = 0;
        this.finish(null);
      } else {
        this.chunks.push(chunk);
        this.remaining -= chunk.length;
      }
    } else if (this.mode === 'chunked') {
      this.chunked(this.pending ? Buffer.concat([this.pending, chunk]) : chunk);
    } else if (this.mode === 'done') {
      this.reusable = false;
    }
  }

  /** Decodes chunked transfer coding; an incomplete line waits in `pending` for the next bytes. */
  private chunked(buf: Buffer): void {
    let at = 0;
    this.pending = null;
    while (at < buf.length) {
      if (this.chunkState === 'data') {
        const take = Math.min(this.remaining, buf.length - at);
        this.chunks.push(buf.subarray(at, at + take));
        at += take;
        this.remaining -= take;
        if (this.remaining === 0) this.chunkState = 'data-end';
        continue;
      }
      const eol = buf.indexOf(CRLF, at);
      if (eol < 0) {
        if (buf.length - at > MAX_HEAD_BYTES) throw new undiciErrors.HTTPParserError('Invalid chunk in the response');
        this.pending = buf.subarray(at);
        return;
      }
      const line = buf.toString('latin1', at, eol);
      at = eol + 2;
      if (this.chunkState === 'data-end') {
        if (line !== '') throw new undiciErrors.HTTPParserError('Invalid chunk in the response');
        this.chunkState = 'size';
      } else if (this.chunkState === 'size') {
        const size = /^([0-9a-fA-F]+)[ \t]*(?:;.*)?$/.exec(line);
        if (!size) throw new undiciErrors.HTTPParserError('Invalid chunk size in the response');
        this.remaining = parseInt(size[1], 16);
        this.chunkState = this.remaining === 0 ? 'trailers' : 'data';
      } else if (line === '') {
        // The empty line after the last chunk (and its trailers, which are ignored).
        if (at < buf.length) this.reusable = false;
        return this.finish(null);
      }
    }
  }
}

/** One kept-alive socket to an origin; its listeners stay for its whole life and feed the current exchange. */
class Connection {
  current: Exchange | null = null;
  idleTimer: NodeJS.Timeout | null = null;
  closed = false;

  constructor(
    readonly socket: net.Socket,
    private readonly onClosed: (conn: Connection) => void,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => (this.current ? this.current.data(chunk) : this.destroy()));
    socket.on('end', () => {
      this.current?.ended();
      this.destroy();
    });
    socket.on('error', (err) => {
      this.current?.fail(err);
      this.destroy();
    });
    socket.on('close', () => {
      this.current?.ended();
      this.closed = true;
      if (this.idleTimer) clearTimeout(this.idleTimer);
      this.onClosed(this);
    });
  }

  destroy(): void {
    this.closed = true;
    this.socket.destroy();
  }
}

class OriginState {
  idle: Connection[] = [];
  open = 0;
  waiting: Waiter[] = [];

  constructor(
    readonly secure: boolean,
    readonly host: string,
    readonly port: number,
    /** The Host header: host and port as in the URL. */
    readonly authority: string,
  ) {}
}

export class Http1Pool {
  private origins = new Map<string, OriginState>();
  private inFlight = 0;
  private closing: (() => void) | null = null;
  private closed: Promise<void> | null = null;

  constructor(private readonly options: Http1PoolOptions) {}

  request(req: Http1Request): Promise<Http1Response> {
    if (this.closed) return Promise.reject(new Http1Failure(new undiciErrors.ClientClosedError(), 0));
    if (req.signal?.aborted) return Promise.reject(new Http1Failure(req.signal.reason, 0));
    let head = `POST ${req.path} HTTP/1.1\r\n`;
    for (const name in req.headers) {
      const value = req.headers[name];
      if (BAD_HEADER_VALUE.test(value) || BAD_HEADER_VALUE.test(name)) return Promise.reject(new Http1Failure(new undiciErrors.InvalidArgumentError(`invalid ${name} header`), 0));
      head += `${name}: ${value}\r\n`;
    }
    const origin = this.originOf(req.origin);
    head = `${head}host: ${origin.authority}\r\nconnection: keep-alive\r\ncontent-length: ${Buffer.byteLength(req.body)}\r\n\r\n`;
    const message = head + req.body;
    this.inFlight++;
    return new Promise<Http1Response>((resolve, reject) => {
      const send = (conn: Connection | null) => {
        if (!conn) return done(new undiciErrors.ClientClosedError());
        if (req.signal?.aborted) {
          this.release(origin, conn, true);
          return done(req.signal.reason);
        }
        const ex = new Exchange(
          req.timeoutMs,
          (err, ex) => {
            conn.current = null;
            this.release(origin, conn, err === null && ex.reusable, ex.keepAliveMs);
            if (err === null) done(null, { status: ex.status, headers: ex.headers, body: ex.body });
            else done(err, undefined, ex.status);
          },
          req.signal,
        );
        conn.current = ex;
        conn.socket.write(message);
      };
      const done = (err: unknown, res?: Http1Response, status = 0) => {
        this.inFlight--;
        if (err === null) resolve(res!);
        else reject(new Http1Failure(err, status));
        if (this.closing && this.inFlight === 0) this.closing();
      };
      this.acquire(origin, send, req.signal, () => done(req.signal!.reason));
    });
  }

  /** Finishes the requests under way, then closes every connection. */
  close(): Promise<void> {
    if (!this.closed) {
      this.closed = new Promise<void>((resolve) => {
        this.closing = () => {
          for (const o of this.origins.values()) for (const c of [...o.idle]) c.destroy();
          resolve();
        };
        if (this.inFlight === 0) this.closing();
      });
    }
    return this.closed;
  }

  private originOf(origin: string): OriginState {
    let o = this.origins.get(origin);
    if (!o) {
      const u = new URL(origin);
      const secure = u.protocol === 'https:';
      o = new OriginState(secure, u.hostname.replace(/^\[|\]$/g, ''), Number(u.port || (secure ? 443 : 80)), u.host);
      this.origins.set(origin, o);
    }
    return o;
  }

  /** Gives `use` a connection: an idle one, a new one, or the next one freed (`onAbort` if the signal aborts while it waits). */
  private acquire(origin: OriginState, use: Waiter, signal?: AbortSignal, onAbort?: () => void): void {
    const conn = origin.idle.pop();
    if (conn) {
      if (conn.idleTimer) clearTimeout(conn.idleTimer);
      conn.idleTimer = null;
      // As undici does: the check phase comes first, so a close or stray bytes the server already
      // sent on this idle connection are seen before a request is written on it.
      setImmediate(() => {
        if (conn.closed) return this.acquire(origin, use, signal, onAbort);
        conn.socket.ref();
        use(conn);
      });
    } else if (origin.open < this.options.connections) {
      use(this.connect(origin));
    } else if (signal && onAbort) {
      // A call aborted while it waits leaves the queue at once, as undici's queued requests do.
      const leave = () => {
        const i = origin.waiting.indexOf(waiter);
        if (i >= 0) origin.waiting.splice(i, 1);
        onAbort();
      };
      const waiter: Waiter = (next) => {
        signal.removeEventListener('abort', leave);
        use(next);
      };
      signal.addEventListener('abort', leave, { once: true });
      origin.waiting.push(waiter);
    } else {
      origin.waiting.push(use);
    }
  }

  private connect(origin: OriginState): Connection {
    origin.open++;
    const socket = origin.secure
      ? tls.connect({ ...this.options.tls, host: origin.host, port: origin.port, servername: net.isIP(origin.host) ? undefined : origin.host, ALPNProtocols: ['http/1.1'] })
      : net.connect({ host: origin.host, port: origin.port });
    const conn = new Connection(socket, (c) => this.forget(origin, c));
    const timer = setTimeout(() => {
      conn.current?.fail(new undiciErrors.ConnectTimeoutError());
      conn.destroy();
    }, this.options.connectTimeoutMs ?? 10_000);
    socket.once(origin.secure ? 'secureConnect' : 'connect', () => clearTimeout(timer));
    socket.once('close', () => clearTimeout(timer));
    return conn;
  }

  /** A connection whose answer ended: back to the idle list, to a waiting request, or closed. */
  private release(origin: OriginState, conn: Connection, reusable: boolean, keepAliveMs?: number): void {
    const idleFor = keepAliveMs ?? this.options.keepAliveMs;
    if (!reusable || conn.closed || this.closed || idleFor <= 0) {
      conn.destroy();
      return;
    }
    const next = origin.waiting.shift();
    if (next) return next(conn);
    conn.socket.unref();
    conn.idleTimer = setTimeout(() => conn.destroy(), idleFor);
    conn.idleTimer.unref();
    origin.idle.push(conn);
  }

  private forget(origin: OriginState, conn: Connection): void {
    origin.open--;
    const i = origin.idle.indexOf(conn);
    if (i >= 0) origin.idle.splice(i, 1);
    // A request waiting for a free slot gets a new connection (or learns the pool is closed).
    const next = origin.waiting.shift();
    if (next) next(this.closed ? null : this.connect(origin));
  }
}

/**
 * Why a request failed: `cause` is what undici's dispatch would have failed with, `status` the
 * answer's status when the failure came after it (the body broke), else 0 (never answered).
 */
export class Http1Failure extends Error {
  constructor(
    readonly cause: unknown,
    readonly status: number,
  ) {
    super((cause as Error)?.message ?? String(cause));
  }
}
