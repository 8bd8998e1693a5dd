import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ok, startPlatform, tempDir, type Platform } from '../helpers/platform.js';

/**
 * Issue 46: a mindmap of what the LiveDoc does not cover is the caller's to change, answered 422 in
 * the v2 shape with a message that says so (it was a 502 MINDMAP_CREATE_FAILED), and nothing is kept.
 */
let p: Platform;
let livedoc: string;
beforeAll(async () => {
  p = await startPlatform();
  const dir = tempDir('uncovered');
  livedoc = ok(await p.cli(['livedocs', 'create', 'Notes'])).stdout.trim();
  // One sentence far too long for a label, and no heading: its passages give no branch.
  writeFileSync(path.join(dir, 'notes.md'), Array.from({ length: 60 }, (_, i) => `word${i} kettle`).join(' ') + '\n');
  ok(
    await p.cli([
      'livedocs',
      'resources',
      'add-doc',
      livedoc,
      '--title',
      'Kettle',
      '--file',
      path.join(dir, 'notes.md'),
    ]),
  );
}, 60_000);
afterAll(() => p?.cleanup());

it('a query the LiveDoc gives no branch for is a 422 that says why, not a 502; nothing is stored', async () => {
  const res = await p.fetch('/v2/mindmap', {
    method: 'POST',
    headers: { authorization: `Bearer ${p.boot.api_key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'kettle', livedoc_short_id: livedoc }),
  });
  const body = (await res.json()) as { status: string; code: string; message: string };
  expect(res.status, JSON.stringify(body)).toBe(422);
  expect(body).toMatchObject({ status: 'error', code: 'VALIDATION_ERROR' });
  expect(body.message).toMatch(/nothing to draw about "kettle"/i);
  expect(body.message).toContain(livedoc);
  const resources = ok(await p.cli(['livedocs', 'resources', 'list', livedoc, '--json'])).stdout;
  expect(resources).not.toMatch(/"mindmap"/);
  // The CLI says the same and exits non-zero.
  const cli = await p.cli(['mindmap', 'kettle', '--livedoc', livedoc]);
  expect(cli.exitCode).not.toBe(0);
  expect(cli.stderr).toMatch(/nothing to draw about/);
});
