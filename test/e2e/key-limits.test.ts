import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type CliResult, type Platform } from '../helpers/platform.js';

const json = (r: CliResult) => {
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

let p: Platform;
beforeAll(async () => {
  p = await startPlatform({ args: ['--max-keys-per-user', '4'] });
});
afterAll(() => p?.cleanup());

const admin = () => ({ 'X-API-Key': p.boot.api_key });

describe('at most --max-keys-per-user usable keys per user', () => {
  it('refuses the key past the limit with 409 in the image shape, and makes room when one is deleted', async () => {
    // The bootstrap key is the first of four.
    const made = [];
    for (const name of ['a', 'b', 'c']) made.push(json(await p.cli(['keys', 'create', '--name', name, '--json'])));
    const over = await p.fetch('/auth/api-keys', {
      method: 'POST',
      headers: { Authorization: `Bearer ${p.boot.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'd' }),
    });
    expect(over.status).toBe(409);
    const body = await over.json();
    expect(body).toEqual({
      detail: expect.stringMatching(/already has 4 API keys.*--max-keys-per-user/),
      code: 'KEY_LIMIT_REACHED',
    });

    const cli = await p.cli(['keys', 'create', '--name', 'd']);
    expect(cli.exitCode).toBe(1);
    expect(cli.stderr).toMatch(/KEY_LIMIT_REACHED/);
    // Admins are held to the same limit for the user.
    const byAdmin = await p.fetch('/admin/api-keys', {
      method: 'POST',
      headers: { ...admin(), 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: p.boot.user_id }),
    });
    expect(byAdmin.status).toBe(409);
    expect(json(await p.cli(['keys', 'list', '--json']))).toHaveLength(4);

    expect((await p.cli(['keys', 'delete', made[0].id, '--yes'])).exitCode).toBe(0);
    json(await p.cli(['keys', 'create', '--name', 'd', '--json']));
  });

  it('lets concurrent creates take only the places that are left', async () => {
    const user = json(await p.cli(['serve', 'users', 'create', 'racer', '--data-dir', p.dataDir, '--json']));
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        p.fetch('/admin/api-keys', {
          method: 'POST',
          headers: { ...admin(), 'content-type': 'application/json' },
          body: JSON.stringify({ user_id: user.id }),
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 201, 201, 409, 409, 409, 409, 409, 409]);
  });
});

describe('admin key listings page with limit and cursor', () => {
  it('returns every key exactly once across pages, with X-Next-Cursor and Link on all but the last', async () => {
    const all = (await (await p.fetch('/admin/api-keys?limit=500', { headers: admin() })).json()) as Array<{
      id: string;
    }>;
    expect(all.length).toBeGreaterThanOrEqual(8);

    const seen: string[] = [];
    let url = '/admin/api-keys?limit=3';
    for (let pages = 0; pages < 10; pages++) {
      const res = await p.fetch(url, { headers: admin() });
      expect(res.status).toBe(200);
      const page = (await res.json()) as Array<{ id: string }>;
      expect(page.length).toBeLessThanOrEqual(3);
      seen.push(...page.map((k) => k.id));
      const next = res.headers.get('x-next-cursor');
      if (!next) {
        expect(res.headers.get('link')).toBeNull();
        break;
      }
      expect(res.headers.get('link')).toMatch(
        /^<http:\/\/127\.0\.0\.1:\d+\/admin\/api-keys\?limit=3&cursor=[\w-]+>; rel="next"$/,
      );
      url = `/admin/api-keys?limit=3&cursor=${next}`;
    }
    expect(seen).toEqual(all.map((k) => k.id));
  });

  it('refuses a limit out of range or a cursor it did not give out, in the image validation shape', async () => {
    for (const q of ['limit=0', 'limit=501', 'cursor=nonsense']) {
      const res = await p.fetch(`/admin/api-keys?${q}`, { headers: admin() });
      expect(res.status, q).toBe(422);
      expect((await res.json()).detail[0].loc).toEqual(['query', q.split('=')[0]]);
    }
  });

  it('the CLI prints one page and says how to get the next, or follows them all with --all', async () => {
    const all = json(await p.cli(['admin', 'keys', 'list', '--limit', '500', '--json']));
    const first = await p.cli(['admin', 'keys', 'list', '--limit', '2', '--json']);
    expect(JSON.parse(first.stdout)).toHaveLength(2);
    expect(first.stderr).toMatch(/more keys follow: --cursor \S+ for the next page, or --all/);
    const every = json(await p.cli(['admin', 'keys', 'list', '--limit', '2', '--all', '--json']));
    expect(every.map((k: { id: string }) => k.id)).toEqual(all.map((k: { id: string }) => k.id));
  });
});
