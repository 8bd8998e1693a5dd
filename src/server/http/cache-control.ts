import type { FastifyRequest } from 'fastify';

/**
 * True when the client asks for an answer read afresh rather than served from a cache
 * (`Cache-Control: no-cache` or `no-store`, or the older `Pragma: no-cache`), as HTTP caches honour.
 */
export function wantsFresh(request: FastifyRequest): boolean {
  const control = request.headers['cache-control'];
  if (control && /(^|,)\s*no-(cache|store)\b/i.test(control)) return true;
  const pragma = request.headers.pragma;
  return typeof pragma === 'string' && /\bno-cache\b/i.test(pragma);
}
