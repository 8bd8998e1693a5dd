import { describe, expect, it } from 'vitest';
import type { RouteDef } from '../../../src/contract/route.js';
import { imageAuthRoutes } from '../../../src/contract/image-auth.js';
import { systemRoutes } from '../../../src/contract/system.js';
import { KEYS_ROUTES } from '../../../src/client/keys.js';
import { SYSTEM_ROUTES } from '../../../src/client/system.js';

/**
 * A client that names its routes by reference (routeRef) sends by those fields alone: each must equal
 * its contract route's, or the CLI would call a path the server does not serve. The typecheck holds
 * them equal too; this catches a reference that drifted under an `as` or a widened type.
 */
const CLIENTS: Array<[string, Record<string, object>, readonly RouteDef[]]> = [
  ['keys', KEYS_ROUTES, imageAuthRoutes],
  ['system', SYSTEM_ROUTES, systemRoutes],
];

describe('route references', () => {
  const cases = CLIENTS.flatMap(([client, refs, routes]) =>
    Object.entries(refs).map(([name, ref]) => [`${client}.${name}`, ref, routes] as const),
  );
  it.each(cases)('%s matches its contract route', (_name, ref, routes) => {
    const route = routes.find((r) => r.id === (ref as { id: string }).id);
    expect(route, `no contract route ${(ref as { id: string }).id}`).toBeDefined();
    const { id, method, path, auth, family, envelope } = route!;
    expect({ ...ref }).toEqual({ id, method, path, auth, family, ...(envelope === false ? { envelope } : {}) });
  });
});
