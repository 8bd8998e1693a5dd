import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CpuPool } from '../../../src/server/engines/workers/pool.js';
import { cpuLimitsFromEnv } from '../../../src/server/engines/workers/limits.js';

// The built worker (`npm run build` first): what a CPU worker thread loads when it starts.
const WORKER = path.resolve(import.meta.dirname, '../../../dist/worker.js');

/** Every package a module loads before it runs: its static imports, followed through the bundle's chunks. */
function staticPackages(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    // `import ... from "x"` and `import "x"` at the start of a line; dynamic import() calls are not loads at start-up.
    for (const m of readFileSync(file, 'utf8').matchAll(/^import\s+(?:[^'"]*?from\s+)?["']([^"']+)["']/gm)) {
      if (m[1].startsWith('.')) walk(path.resolve(path.dirname(file), m[1]));
      else packages.add(m[1]);
    }
  };
  walk(entry);
  return packages;
}

const pool = new CpuPool({ worker: pathToFileURL(WORKER) }, { ...cpuLimitsFromEnv({}), size: 1 });
afterAll(() => pool.close());

describe('a CPU worker at start-up', () => {
  it('loads no engine package: each job imports its own on first use', () => {
    expect(existsSync(WORKER), 'run npm run build first').toBe(true);
    const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    // Before, every engine (fonts, the rasteriser, the slide writer, the HTML parsers) loaded when the
    // first CPU job of any kind started the worker: a batch scrape paid for the slide writer.
    expect([...staticPackages(WORKER)].filter((p) => !builtins.has(p))).toEqual([]);
    // Nor does the render child process (a render loads resvg when it runs).
    expect(
      [...staticPackages(path.join(path.dirname(WORKER), 'render-child.js'))].filter((p) => !builtins.has(p)),
    ).toEqual([]);
  });

  it('still runs the jobs whose modules it loads lazily', async () => {
    const shaped = (await pool.run('shape-html', {
      html: '<html><head><title>T</title></head><body><h1>Hello</h1><p>world</p></body></html>',
      url: 'https://example.com/',
      options: { format: 'markdown', readability: 'off' },
    })) as { ok: boolean; page: { title: string; content: string } };
    expect(shaped.ok).toBe(true);
    expect(shaped.page.title).toBe('T');
    expect(shaped.page.content).toBe('# Hello\n\nworld');
    await expect(pool.run('count-tokens', { texts: ['hello world'] })).resolves.toEqual([2]);
  });
});
