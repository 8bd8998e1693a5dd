import { describe, expect, it } from 'vitest';
import { imageAuthRoutes } from '../../../src/contract/image-auth.js';
import { KEYS_ROUTES } from '../../../src/client/keys.js';

/**
 * A client that names its routes by reference (routeRef) sends by those fields alone: each must equal
 * its contract route's, or the CLI would call a path the server does not serve. The typecheck holds
 * them equal too; this catches a reference that drifted under an `as` or a widened type.
 */
describe('route references', () => {
  it.each(Object.entries(KEYS_ROUTES))('keys client %s matches its contract route', (_name, ref) => {
    const route = imageAuthRoutes.find((r) => r.id === ref.id);
    expect(route, `no contract route ${ref.id}`).toBeDefined();
    const { id, method, path, auth, family } = route!;
    const envelope = 'envelope' in route! ? route.envelope : undefined;
    expect({ ...ref }).toEqual({ id, method, path, auth, family, ...(envelope === false ? { envelope } : {}) });
  });
});
