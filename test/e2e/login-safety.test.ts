import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, okJson, runCli, startPlatform, tempDir, type Platform } from '../helpers/platform.js';
import { answerLoginPrompts, runOnPty } from '../helpers/pty.js';

/** Logins never break a working set-up: no silent overwrite, nothing unchecked, no masked values. */

let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
});
afterAll(() => p?.cleanup());

/** A config dir whose current profile is "local", holding the platform's three credentials. */
async function localConfig(): Promise<string> {
  const cfg = tempDir('cfg');
  ok(await runCli(cfg, ['login', '--local', '--data-dir', p.dataDir]));
  return cfg;
}
const configFile = (cfg: string) => readFileSync(path.join(cfg, 'config.json'), 'utf8');
const profilesOf = async (cfg: string) =>
  okJson(await runCli(cfg, ['config', 'profiles', '--json'])) as Array<{
    name: string;
    base_url: string | null;
    credentials: string[];
  }>;

describe('login', () => {
  it("will not replace the current profile's credentials unless told to (--profile or --force)", async () => {
    const cfg = await localConfig();
    const before = configFile(cfg);
    const otherKey = ok(await p.cli(['keys', 'create', '--name', 'other'])).stdout.trim();
    const r = await runCli(cfg, ['login', '--api-key-stdin', '--base-url', p.url], { input: otherKey });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /profile "local" holds api_key for http:\/\/127\.0\.0\.1:\d+, which this login would replace: nothing saved/,
    );
    expect(r.stderr).toMatch(/--profile NAME.*--force/);
    expect(configFile(cfg)).toBe(before);

    // a named profile is the user's choice
    ok(
      await runCli(cfg, ['--profile', 'second', 'login', '--api-key-stdin', '--base-url', p.url], { input: otherKey }),
    );
    expect((await profilesOf(cfg)).find((x) => x.name === 'local')!.credentials).toEqual([
      'api_key',
      'access_token',
      'admin_key',
    ]);

    // --force replaces the key; the other credentials of the same server stay
    ok(await runCli(cfg, ['config', 'use', 'local']));
    ok(await runCli(cfg, ['login', '--api-key-stdin', '--base-url', p.url, '--force'], { input: otherKey }));
    const local = JSON.parse(configFile(cfg)).profiles.local;
    expect(local.api_key).toBe(otherKey);
    expect(local.access_token).toBe(p.boot.access_token);
  });

  it("moving a profile to another server drops the old server's secrets instead of mixing them", async () => {
    const cfg = await localConfig();
    const other = p.url.replace('127.0.0.1', 'localhost');
    ok(await runCli(cfg, ['login', '--api-key-stdin', '--base-url', other, '--force'], { input: p.boot.api_key }));
    expect(JSON.parse(configFile(cfg)).profiles.local).toEqual({ base_url: other, api_key: p.boot.api_key });
  });

  it('refuses credentials it cannot check, unless --no-verify', async () => {
    const cfg = tempDir('cfg');
    const r = await runCli(cfg, ['--profile', 'away', 'login', '--api-key-stdin', '--base-url', 'http://127.0.0.1:9'], {
      input: p.boot.api_key,
    });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/could not reach http:\/\/127\.0\.0\.1:9 to check the API key: nothing saved/);
    expect(r.stderr).toMatch(/--no-verify/);
    expect(await profilesOf(cfg)).toEqual([]);
    const unchecked = await runCli(
      cfg,
      ['--profile', 'away', 'login', '--api-key-stdin', '--base-url', 'http://127.0.0.1:9', '--no-verify'],
      { input: p.boot.api_key },
    );
    expect(unchecked.exitCode, unchecked.stderr).toBe(0);
    expect(unchecked.stderr).toMatch(/saved without checking/);
    expect((await profilesOf(cfg)).map((x) => x.name)).toEqual(['away']);
  });

  it('refuses the masked value `config get` prints, in login and in config set', async () => {
    const cfg = await localConfig();
    const masked = ok(await runCli(cfg, ['config', 'get', 'api_key'])).stdout.trim();
    expect(masked).toContain('…');
    const before = configFile(cfg);
    const r = await runCli(cfg, ['--profile', 'copy', 'login', '--api-key-stdin', '--base-url', p.url], {
      input: masked,
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/masked value/);
    const set = await runCli(cfg, ['config', 'set', 'api_key', masked]);
    expect(set.exitCode).toBe(2);
    expect(set.stderr).toMatch(/masked value/);
    expect(configFile(cfg)).toBe(before);
  });
});

describe('profiles with an admin key, logout, delete', () => {
  it('whoami on a profile that holds only the admin key shows it; login checks that key beside an admin API key', async () => {
    const cfg = tempDir('cfg');
    const alone = await runCli(cfg, ['--profile', 'adm', 'login', '--admin-key-stdin', '--base-url', p.url], {
      input: p.boot.admin_key,
    });
    expect(alone.exitCode).toBe(2);
    expect(alone.stderr).toMatch(/together with an administrator's API key: nothing saved/);
    const withKey = { env: { FACET_API_KEY: p.boot.api_key } };
    const wrong = await runCli(cfg, ['--profile', 'bad', 'login', '--admin-key-stdin', '--base-url', p.url], {
      input: 'fadm_wrong',
      ...withKey,
    });
    expect(wrong.exitCode).toBe(3);
    expect(wrong.stderr).toMatch(/refused the admin key.*INVALID_ADMIN_KEY/);
    ok(
      await runCli(cfg, ['--profile', 'adm', 'login', '--admin-key-stdin', '--base-url', p.url], {
        input: p.boot.admin_key,
        ...withKey,
      }),
    );
    const who = okJson(await runCli(cfg, ['--profile', 'adm', 'whoami', '--json']));
    expect(who).toMatchObject({ profile: 'adm', user: null, admin_key: true });
    const human = ok(await runCli(cfg, ['--profile', 'adm', 'whoami']));
    expect(human.stdout).toMatch(/only the deployment admin key/);
    expect(human.stdout).toMatch(/admin key\s+fadm_\w+…\w+ \(profile\)/);
  });

  it('logout --all empties every profile; an emptied profile can be deleted; one with credentials needs --yes', async () => {
    const cfg = await localConfig();
    ok(
      await runCli(cfg, ['--profile', 'adm', 'login', '--admin-key-stdin', '--base-url', p.url], {
        input: p.boot.admin_key,
        env: { FACET_API_KEY: p.boot.api_key },
      }),
    );
    ok(
      await runCli(cfg, ['--profile', 'keep', 'login', '--api-key-stdin', '--base-url', p.url], {
        input: p.boot.api_key,
      }),
    );
    const held = await runCli(cfg, ['config', 'profiles', 'delete', 'keep']);
    expect(held.exitCode).toBe(2);
    expect(held.stderr).toMatch(/still holds api_key.*confirmation needed/);
    ok(await runCli(cfg, ['config', 'profiles', 'delete', 'keep', '--yes']));

    ok(await runCli(cfg, ['logout', '--all']));
    const after = await profilesOf(cfg);
    expect(after.map((x) => [x.name, x.credentials])).toEqual([
      ['local', []],
      ['adm', []],
    ]);
    ok(await runCli(cfg, ['config', 'profiles', 'delete', 'adm']));
    expect((await profilesOf(cfg)).map((x) => x.name)).toEqual(['local']);
    expect((await runCli(cfg, ['config', 'profiles', 'delete', 'adm'])).exitCode).toBe(4);
  });
});

describe('on a terminal', () => {
  it('a login over the current profile\'s credentials asks; "No" saves nothing and exits 1', async () => {
    const cfg = await localConfig();
    const before = configFile(cfg);
    const otherKey = ok(await p.cli(['keys', 'create', '--name', 'pty'])).stdout.trim();
    const run = runOnPty(['login'], { configDir: cfg });
    await answerLoginPrompts(run, otherKey, false);
    expect(await run.exited, run.tail()).toBe(1);
    expect(run.output()).toMatch(/nothing done/);
    expect(configFile(cfg)).toBe(before);
  });

  it('"No" to a delete confirmation is a decline: exit 1 "nothing done", not 130', async () => {
    const project = okJson(await p.cli(['projects', 'create', 'Kept', '--json'])).id;
    const run = runOnPty(['projects', 'delete', project], { configDir: p.configDir });
    await run.waitFor(/Delete project/);
    run.type('n');
    run.type('\r');
    expect(await run.exited, run.tail()).toBe(1);
    expect(run.output()).toMatch(/nothing done/);
    expect(okJson(await p.cli(['projects', 'list', '--json'])).map((x: { id: string }) => x.id)).toContain(project);
  });
});
