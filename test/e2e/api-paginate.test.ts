import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, okJson, startPlatform, type Platform } from '../helpers/platform.js';

let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
  for (const name of ['one', 'two', 'three']) ok(await p.cli(['api', '/v2/livedocs', '-f', `name=${name}`]));
  for (const name of ['k1', 'k2']) ok(await p.cli(['keys', 'create', '--name', name]));
});
afterAll(() => p?.cleanup());

describe('facet api', () => {
  it('the path alone is a GET, or a POST when fields are given (the POSTs above made LiveDocs)', async () => {
    const page = okJson(await p.cli(['api', 'GET', '/v2/livedocs', '-F', 'size=50']));
    expect(page.data.items.map((d: { name: string }) => d.name).sort()).toEqual(['one', 'three', 'two']);
    expect(okJson(await p.cli(['api', '/auth/api-keys'])).length).toBe(3); // no fields: GET
    const r = await p.cli(['api', 'GET']);
    expect(r.exitCode).toBe(2);
  });

  it('--paginate follows /v2 page/size/total; --slurp merges the pages into one array', async () => {
    const pages = ok(
      await p.cli(['api', '-X', 'GET', '/v2/livedocs', '-F', 'size=2', '--paginate', '--jq', '.data.page']),
    );
    expect(pages.stdout).toBe('1\n2\n');
    const all = okJson(await p.cli(['api', 'GET', '/v2/livedocs', '-F', 'size=1', '--paginate', '--slurp']));
    expect(all.map((d: { name: string }) => d.name).sort()).toEqual(['one', 'three', 'two']);
  });

  it('--paginate follows X-Next-Cursor (admin key listing)', async () => {
    const all = okJson(await p.cli(['api', 'GET', '/admin/api-keys', '-F', 'limit=1', '--paginate', '--slurp']));
    expect(all.length).toBe(3);
    expect(new Set(all.map((k: { id: string }) => k.id)).size).toBe(3);
  });

  it('--slurp without --paginate is a usage error', async () => {
    expect((await p.cli(['api', '/v2/livedocs', '--slurp'])).exitCode).toBe(2);
  });
});
