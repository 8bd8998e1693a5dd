import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, okJson, startPlatform, tempDir, type Platform } from '../helpers/platform.js';

let p: Platform;
// The OS data dir of these runs: a temp dir, so the machine's own records are never touched.
const xdg = { XDG_DATA_HOME: tempDir('xdg-data') };
const osDataDir = path.join(xdg.XDG_DATA_HOME, 'facet');
beforeAll(async () => {
  p = await startPlatform();
});
afterAll(() => p?.cleanup());

describe("offline serve verbs find the running server's data dir", () => {
  it('`serve users create` without --data-dir works on the data dir of the "local" profile\'s server, and says so', async () => {
    const created = ok(await p.cli(['serve', 'users', 'create', 'carol', '--json'], { env: xdg }));
    expect(created.stderr).toContain(`using data dir ${p.dataDir} (the running server of the "local" profile)`);
    const names = okJson(await p.cli(['serve', 'users', 'list', '--data-dir', p.dataDir, '--json'])).map(
      (u: { name: string }) => u.name,
    );
    expect(names).toContain('carol');
    // The server sees the user at once: a token made offline works against it.
    const token = ok(await p.cli(['serve', 'token', 'carol'], { env: xdg })).stdout.trim();
    const who = await p.fetch('/auth/whoami', { headers: { authorization: `Bearer ${token}` } });
    expect(((await who.json()) as { user: { name: string } }).user.name).toBe('carol');
    expect(existsSync(path.join(osDataDir, 'facet.db'))).toBe(false);
  });

  it('an explicit --data-dir or FACET_DATA_DIR wins and is not announced', async () => {
    const r = ok(await p.cli(['serve', 'users', 'list', '--json'], { env: { ...xdg, FACET_DATA_DIR: p.dataDir } }));
    expect(r.stderr).toBe('');
  });

  it('a data dir without records is refused (exit 2) unless --create', async () => {
    const empty = tempDir('empty-data');
    const refused = await p.cli(['serve', 'users', 'create', 'dave', '--data-dir', empty], { env: xdg });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(`no facet records in ${empty} (no facet.db)`);
    expect(refused.stderr).toMatch(/hint: .*--data-dir.*--create/);
    expect(existsSync(path.join(empty, 'facet.db'))).toBe(false);
    ok(await p.cli(['serve', 'users', 'create', 'dave', '--data-dir', empty, '--create'], { env: xdg }));
    expect(existsSync(path.join(empty, 'facet.db'))).toBe(true);
  });

  it('with the server stopped it names the OS data dir and refuses it while empty', async () => {
    await p.stop();
    const r = await p.cli(['serve', 'users', 'list', '--json'], { env: xdg });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(
      `using data dir ${osDataDir} (the OS data dir: no server of the "local" profile is running)`,
    );
    expect(r.stderr).toContain(`no facet records in ${osDataDir}`);
  });
});
