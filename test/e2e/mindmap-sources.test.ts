import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ok, startPlatform, type Platform } from '../helpers/platform.js';

/**
 * Two man pages (tee(1) and tail(1) as groff renders them) both have a DESCRIPTION: a map of their
 * options drew one DESCRIPTION branch, the sources' passages named by their section alone.
 */
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/real-docs');
let p: Platform;
let livedoc: string;
beforeAll(async () => {
  p = await startPlatform();
  livedoc = ok(await p.cli(['livedocs', 'create', 'Man pages'])).stdout.trim();
  for (const page of ['tee.html', 'tail.html'])
    ok(await p.cli(['livedocs', 'resources', 'upload-doc', livedoc, path.join(FIXTURES, page)]));
}, 60_000);
afterAll(() => p?.cleanup());

it('a heading two sources share is a branch of each, named with its source', async () => {
  const map = JSON.parse(ok(await p.cli(['mindmap', 'tee and tail options', '--livedoc', livedoc, '--json'])).stdout);
  const labels = [...(map.svg as string).matchAll(/<tspan[^>]*>([^<]*)<\/tspan>/g)].map((m) => m[1]).join('\n');
  expect(labels).toMatch(/DESCRIPTION \(TEE\)/);
  expect(labels).toMatch(/DESCRIPTION \(TAIL\)/);
});
