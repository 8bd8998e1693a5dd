import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, okJson, startPlatform, type Platform } from '../helpers/platform.js';

let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
  ok(await p.cli(['keys', 'create', '--name', 'second']));
});
afterAll(() => p?.cleanup());

describe('--json with a field list', () => {
  it('keeps the named fields of each record', async () => {
    const keys = okJson(await p.cli(['keys', 'list', '--json', 'id,name']));
    expect(keys.length).toBe(2);
    for (const k of keys) expect(Object.keys(k)).toEqual(['id', 'name']);
    expect(keys.map((k: { name: string }) => k.name).sort()).toEqual(['bootstrap', 'second']);
  });

  it('--json=FIELD takes one field; a one-record command is shaped too', async () => {
    expect(okJson(await p.cli(['whoami', '--json=via']))).toEqual({ via: 'key' });
  });

  it('an unknown field is a usage error that lists the available ones', async () => {
    const r = await p.cli(['keys', 'list', '--json', 'id,nope']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/unknown JSON field: nope/);
    expect(r.stderr).toMatch(/available fields: .*created_at.*name/);
    expect(r.stdout).toBe('');
  });

  it('a plain --json before the group still means the whole JSON', async () => {
    const keys = okJson(await p.cli(['--json', 'keys', 'list']));
    expect(keys[0]).toHaveProperty('prefix');
  });
});

describe('--jq', () => {
  it('prints each result on its own line, strings raw, and implies --json', async () => {
    const r = ok(await p.cli(['keys', 'list', '--jq', '.[].name']));
    expect(r.stdout.split('\n').filter(Boolean).sort()).toEqual(['bootstrap', 'second']);
    const who = ok(await p.cli(['whoami', '--jq', '.user.name, .user.credits, {role: .user.role}']));
    expect(who.stdout).toBe('admin\n1000\n{\n  "role": "admin"\n}\n');
  });

  it('applies after the field list', async () => {
    const r = ok(await p.cli(['keys', 'list', '--json', 'id,name', '--jq', '.[0] | keys | join(",")']));
    expect(r.stdout).toBe('id,name\n');
  });

  it('works on facet api bodies', async () => {
    const r = ok(await p.cli(['api', 'GET', '/auth/api-keys', '--jq', 'length']));
    expect(r.stdout).toBe('2\n');
  });

  it("on a paged list filters the list's items, as --json FIELDS selects them; facet api bodies stay whole", async () => {
    for (const name of ['paged-a', 'paged-b', 'paged-c']) ok(await p.cli(['livedocs', 'create', name]));
    expect(okJson(await p.cli(['livedocs', 'list', '--json'])).total).toBe(3);
    expect(ok(await p.cli(['livedocs', 'list', '--jq', 'length'])).stdout).toBe('3\n');
    expect(
      ok(await p.cli(['livedocs', 'list', '--jq', '.[].name']))
        .stdout.split('\n')
        .filter(Boolean)
        .sort(),
    ).toEqual(['paged-a', 'paged-b', 'paged-c']);
    // A body beside paging scalars (social search) and a list of such bodies (beta data) alike.
    const posts = okJson<unknown[]>(await p.cli(['social', 'search', 'coffee', '--limit', '3', '--json']));
    expect(ok(await p.cli(['social', 'search', 'coffee', '--limit', '3', '--jq', 'length'])).stdout).toBe(
      `${(posts as { tweets: unknown[] } & unknown[]).tweets.length}\n`,
    );
    expect(ok(await p.cli(['beta', 'backlinks', 'example.com', '--limit', '7', '--jq', 'length'])).stdout).toBe('7\n');
    // The raw API keeps the body as sent for jq: the v2 envelope around the page's four keys.
    expect(ok(await p.cli(['api', 'GET', '/v2/livedocs', '--jq', '.data | keys | length'])).stdout).toBe('4\n');
    // A report with objects beside its list is not a page: jq sees it whole.
    expect(ok(await p.cli(['admin', 'usage', '--jq', '.totals | has("calls")'])).stdout).toBe('true\n');
  }, 180_000);

  it('a filter that does not compile is a usage error; a failing one exits 1', async () => {
    const bad = await p.cli(['keys', 'list', '--jq', '.[']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/--jq: [^]*compile error/);
    const failing = await p.cli(['keys', 'list', '--jq', 'error("boom")']);
    expect(failing.exitCode).toBe(1);
    expect(failing.stderr).toMatch(/--jq: .*boom/);
  });
});
