import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorFamily } from '../../contract/route.js';
import { surfaceOf } from '../../contract/index.js';
import { HttpError } from '../errors.js';
import { shapeError } from './error-shape.js';

/**
 * The id of each request in flight, kept on the request itself (a WeakMap entry per request costs
 * the garbage collector): a 408 for a body that stopped arriving names the request it cuts.
 */
const REQUEST_ID = Symbol('facet.requestId');
type WithRequestId = IncomingMessage & { [REQUEST_ID]?: string };
export const rememberRequestId = (raw: IncomingMessage, id: string) => void ((raw as WithRequestId)[REQUEST_ID] = id);

/** Family of a path; the image service's shape where the path names no surface (as the 404 handler does). */
export const familyOfPath = (path: string): ErrorFamily => surfaceOf(path.split('?')[0])?.family ?? 'image';

/** Node's parser and timer failures, in our terms: status, code and what the caller did. */
function describe(err: { code?: string }, timeoutSeconds: { headers: number; request: number }): HttpError {
  switch (err.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new HttpError(
        'REQUEST_TIMEOUT',
        `The request did not arrive in time: headers must arrive within ${timeoutSeconds.headers} s and the whole request within ${timeoutSeconds.request} s`,
        { status: 408 },
      );
    case 'HPE_HEADER_OVERFLOW':
      return new HttpError('HEADERS_TOO_LARGE', 'The request line and headers exceed 16 KB', { status: 431 });
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new HttpError('PAYLOAD_TOO_LARGE', 'Chunk extensions are too large', { status: 413 });
    default:
      return new HttpError('INVALID_PARAMETER', `Malformed HTTP request (${err.code ?? 'parse error'})`, {
        status: 400,
      });
  }
}

/** The request line of what arrived, when it did: the path picks the error family. */
function pathOf(err: { rawPacket?: unknown }, res: ServerResponse | undefined): string {
  if (res?.req?.url) return res.req.url;
  const head = Buffer.isBuffer(err.rawPacket) ? err.rawPacket.subarray(0, 8192).toString('latin1') : '';
  return /^[A-Z]+ (\S+)/.exec(head)?.[1] ?? '/';
}

/**
 * Replaces Fastify's default 'clientError' handler (raw `{"error":…,"statusCode":…}` bodies): a
 * request that timed out, whose head is too large or that cannot be parsed is answered in the
 * error shape of the surface its path names, then the connection is closed. Nothing is written
 * once a response has begun (the answer of an earlier request on the connection is under way).
 */
export function clientErrorHandler(nextRequestId: () => string, timeoutSeconds: { headers: number; request: number }) {
  return (err: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const res = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
    if (socket.writable && !res?.headersSent) {
      const requestId = (res?.req && (res.req as WithRequestId)[REQUEST_ID]) || nextRequestId();
      const shaped = shapeError(familyOfPath(pathOf(err, res)), describe(err, timeoutSeconds), requestId);
      const body = JSON.stringify(shaped.body);
      socket.write(
        `HTTP/1.1 ${shaped.status} ${STATUS_CODES[shaped.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(err);
  };
}

/** Fastify's router failures (a path parameter past its length, a malformed percent-escape) in the surface's shape. */
export function frameworkErrorHandler(maxParamLength: number) {
  return (err: Error & { code?: string }, request: FastifyRequest, reply: FastifyReply): void => {
    const e =
      err.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? new HttpError('URI_TOO_LONG', `A path parameter is longer than ${maxParamLength} characters`, { status: 414 })
        : err.code === 'FST_ERR_BAD_URL'
          ? new HttpError('INVALID_PARAMETER', `The path is not a valid URL: ${err.message}`, { status: 400 })
          : err;
    if (!(e instanceof HttpError)) request.log.error({ err }, 'routing failed');
    const shaped = shapeError(familyOfPath(request.url), e, request.id);
    reply.code(shaped.status).header('x-request-id', request.id).headers(shaped.headers).send(shaped.body);
  };
}
