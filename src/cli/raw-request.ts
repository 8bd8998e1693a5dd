import type { RequestSpec } from '../client/transport.js';

/**
 * A call to any platform path with the credentials its route needs: the route (or else the surface
 * the path falls in) says which auth group and which base URL apply. Used by `facet api` and by
 * fixtures files, so both reach a path exactly the same way.
 */
export async function rawRequestSpec(
  method: string,
  path: string,
  parts: { query?: RequestSpec['query']; body?: unknown; headers?: Record<string, string> },
): Promise<RequestSpec> {
  const { matchRoute, surfaceOf } = await import('../contract/index.js');
  const owner = matchRoute(method, path) ?? surfaceOf(path);
  return {
    method,
    path,
    auth: owner?.auth ?? 'none',
    service: (owner?.family ?? 'image') === 'image' ? 'image' : 'platform',
    query: parts.query,
    body: parts.body,
    headers: parts.headers ?? {},
  };
}
