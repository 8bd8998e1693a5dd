import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A body refused before it was read (413 from Content-Length alone) is still on its way: hanging up
 * resets the connection under a client that writes its body before it reads (fetch, most SDKs), and
 * the caller sees EPIPE instead of the 413. Up to this many bytes, Node reads the rest off the wire and
 * the connection stays usable; past it, or without a length, the connection is closed as Fastify does.
 */
export const DRAIN_REFUSED_BODY_BYTES = 64 * 1024 * 1024;

export function keepConnectionForRefusedBody(request: FastifyRequest, reply: FastifyReply, status: number): void {
  if (status !== 413 || request.raw.complete) return;
  const declared = Number(request.headers['content-length']);
  if (Number.isSafeInteger(declared) && declared <= DRAIN_REFUSED_BODY_BYTES) reply.removeHeader('connection');
}
