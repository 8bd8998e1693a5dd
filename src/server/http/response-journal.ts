import { appendFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** One response as it left the server: what the test suite checks against the served OpenAPI document. */
export interface JournalEntry {
  method: string;
  url: string;
  status: number;
  contentType: string | null;
  /** Bytes of body sent. */
  bytes: number;
  /** The body as text when it is JSON or an event stream; null for other media (files, pages). */
  body: string | null;
  /** The connection closed before the response ended (a client that left a stream). */
  cut: boolean;
}

const MAX_KEPT_BYTES = 16 * 1024 * 1024;

/** Bodies worth reading back: JSON and event streams; files and pages are checked by media type only. */
const TEXTUAL = /^(application\/(json|problem\+json)|text\/event-stream)\b/i;

/**
 * Set FACET_RESPONSE_JOURNAL=FILE (the e2e helper does) to append every response this server sends
 * to FILE, one JSON line each, whoever asked and however it was written: JSON replies, errors,
 * 404s, files, and the event streams the model surfaces and conversations write on the raw socket
 * (which Fastify's onSend never sees). The line is written before the response's last bytes are, so
 * a client that has its answer can read the journal at once. A test aid, not a log: bodies are kept
 * whole, secrets included, so the file is created 0600 and only when asked for.
 */
export function installResponseJournal(app: FastifyInstance, file = process.env.FACET_RESPONSE_JOURNAL): void {
  if (!file) return;
  app.addHook('onRequest', async (request, reply) => {
    record(reply.raw, request.method, request.url, file);
  });
}

function record(res: ServerResponse, method: string, url: string, file: string): void {
  const chunks: Buffer[] = [];
  let bytes = 0;
  let done = false;
  const keep = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    const buf = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    bytes += buf.length;
    // Large downloads are counted, not kept: only JSON and event streams are read back.
    if (bytes <= MAX_KEPT_BYTES) chunks.push(buf);
  };
  // Fastify hands its headers to writeHead rather than setHeader, so the content type is read there too.
  let typeGiven: string | undefined;
  const flush = (cut: boolean) => {
    if (done) return;
    done = true;
    const type = typeGiven ?? res.getHeader('content-type');
    const contentType = type === undefined ? null : String(type);
    const body =
      contentType && TEXTUAL.test(contentType) && bytes <= MAX_KEPT_BYTES
        ? Buffer.concat(chunks).toString('utf8')
        : null;
    const entry: JournalEntry = { method, url, status: res.statusCode, contentType, bytes, body, cut };
    appendFileSync(file, JSON.stringify(entry) + '\n', { mode: 0o600 });
  };
  const write = res.write.bind(res);
  const end = res.end.bind(res);
  const writeHead = res.writeHead.bind(res);
  res.writeHead = function (...args: unknown[]) {
    const headers = args.find((a) => typeof a === 'object' && a !== null);
    if (Array.isArray(headers)) {
      for (let i = 0; i + 1 < headers.length; i += 2)
        if (String(headers[i]).toLowerCase() === 'content-type') typeGiven = String(headers[i + 1]);
    } else if (headers) {
      for (const [k, v] of Object.entries(headers))
        if (k.toLowerCase() === 'content-type' && v !== undefined) typeGiven = String(v);
    }
    return (writeHead as (...a: unknown[]) => ServerResponse)(...args);
  };
  res.write = function (chunk: unknown, ...rest: unknown[]) {
    keep(chunk, rest[0]);
    return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
  } as typeof res.write;
  res.end = function (chunk?: unknown, ...rest: unknown[]) {
    keep(chunk, rest[0]);
    flush(false);
    return (end as (...a: unknown[]) => ServerResponse)(chunk, ...rest);
  } as typeof res.end;
  res.once('close', () => flush(true));
}
