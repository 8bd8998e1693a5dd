import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, okJson, startPlatform, type Platform } from '../helpers/platform.js';

let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
});
afterAll(() => p?.cleanup());

const livedocCount = async () => okJson(await p.cli(['livedocs', 'list', '--json'])).total as number;

describe('facet ask without --livedoc', () => {
  it('with no LiveDoc: says how to make one, exits 4, and creates nothing', async () => {
    const r = await p.cli(['ask', 'What is in here?']);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toMatch(/you have no LiveDoc to ask/);
    expect(r.stderr).toMatch(/facet livedocs create NAME/);
    expect(await livedocCount()).toBe(0);
    expect((await p.cli(['config', 'get', 'default_livedoc'])).stdout.trim()).toBe('');
  });

  it('with one LiveDoc: asks it, says so, and leaves the default unset', async () => {
    const only = okJson(await p.cli(['api', 'POST', '/v2/livedocs', '-f', 'name=notes'])).data.short_id;
    const r = ok(await p.cli(['ask', 'What is in here?']));
    expect(r.stderr).toContain(`asking LiveDoc ${only} (notes), your only one`);
    expect(r.stderr).toContain(`livedoc ${only}`);
    expect(await livedocCount()).toBe(1);
    expect((await p.cli(['config', 'get', 'default_livedoc'])).stdout.trim()).toBe('');
  });

  it('with several: a usage error naming them and the ways to choose; the default and --livedoc decide', async () => {
    const other = okJson(await p.cli(['api', 'POST', '/v2/livedocs', '-f', 'name=other'])).data.short_id;
    const r = await p.cli(['ask', 'Anything?']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(
      /which LiveDoc\? you have 2: .*\(notes\).*\(other\)|which LiveDoc\? you have 2: .*\(other\).*\(notes\)/,
    );
    expect(r.stderr).toMatch(/--livedoc ID .*default_livedoc.*facet chat/);
    ok(await p.cli(['config', 'set', 'default_livedoc', other]));
    expect(ok(await p.cli(['ask', 'And now?'])).stderr).toContain(`livedoc ${other}`);
    const threads = okJson(await p.cli(['conversations', 'list', '--livedoc', other, '--json']));
    expect(threads.total).toBe(1);
    const notes = okJson(await p.cli(['livedocs', 'list', '--json'])).items.find(
      (d: { name: string }) => d.name === 'notes',
    ).short_id;
    expect(ok(await p.cli(['ask', 'Anything?', '--livedoc', notes])).stderr).toContain(`livedoc ${notes}`);
    expect(ok(await p.cli(['config', 'get', 'default_livedoc'])).stdout.trim()).toBe(other);
    expect(await livedocCount()).toBe(2);
  });
});
