import type { FastifyRequest } from 'fastify';
import { redactSecrets } from '../auth/secrets.js';

export { redactSecrets };

/** Query parameters whose values are capabilities: whoever reads them can use them. */
const SECRET_PARAMS = new Set(['sig', 'signature', 'token', 'access_token', 'api_key', 'key']);
/** A conversation stream key in the path is a capability to read the stream. */
const STREAM_KEY = /^(\/v2\/conversations\/stream\/)[^/?#]+/;

/**
 * The URL as request logs may show it: credentials in headers are redacted by the logger's own
 * redact paths; these are the ones that travel in the URL (signed download links, stream keys), and
 * anything shaped like a credential anywhere in it (a key pasted into a path or a query).
 */
export function redactUrl(url: string): string {
  return redactSecrets(redactUrlParams(url));
}

function redactUrlParams(url: string): string {
  const q = url.indexOf('?');
  const pathPart = (q === -1 ? url : url.slice(0, q)).replace(STREAM_KEY, '$1[redacted]');
  if (q === -1) return pathPart;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // a malformed name is logged as sent
      }
      return eq !== -1 && SECRET_PARAMS.has(decoded.toLowerCase()) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${pathPart}?${query}`;
}

/** Fastify's default request serializer, with the URL redacted. */
export function serializeRequest(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: redactSecrets(req.host),
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}
