import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// ARCHITECTURE "Layers": imports flow downward. These folders sit below services (and engines know
// no HTTP); each rule lists the folders of src/server its files must not import.
const SERVER = resolve(import.meta.dirname, '../../src/server');
const RULES: Record<string, string[]> = {
  engines: ['services', 'routes', 'http'],
  auth: ['services', 'routes', 'http'],
  store: ['services', 'routes', 'http', 'engines', 'auth'],
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every relative module a file imports (static, dynamic and type-only), as a path under src/server. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]);
  return specs.map((s) => relative(SERVER, resolve(dirname(file), s)));
}

describe('server layers', () => {
  for (const [layer, forbidden] of Object.entries(RULES)) {
    it(`${layer}/ imports nothing from ${forbidden.join(', ')}`, () => {
      const crossing = sources(join(SERVER, layer)).flatMap((file) =>
        importsOf(file)
          .filter((target) => forbidden.includes(target.split('/')[0]))
          .map((target) => `${relative(SERVER, file)} -> ${target}`),
      );
      expect(crossing).toEqual([]);
    });
  }
});
