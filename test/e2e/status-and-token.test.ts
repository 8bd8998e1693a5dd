import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, okJson, runCli, startPlatform, tempDir, type Platform } from '../helpers/platform.js';

let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
});
afterAll(() => p?.cleanup());

const lines = (text: string) => text.split('\n').filter(Boolean);

describe('facet status', () => {
  it('one marked line per check; all pass against a running local platform with an executable Chromium', async () => {
    const r = await p.cli(['status'], { env: { FACET_CHROMIUM: process.execPath } });
    const out = lines(r.stdout);
    expect(out[0]).toMatch(
      /^✓ profile "local" \(current in .*config\.json\); base URL from config file; API key from config file/,
    );
    expect(out[1]).toBe(`✓ ${p.url} answers (/healthz ${/healthz (\d+) ms/.exec(out[1])?.[1]} ms)`);
    expect(out[2]).toMatch(/^✓ logged in as admin \(usr_\w+, admin\) with an API key$/);
    expect(out[3]).toMatch(/^✓ server version \S+/);
    expect(out[4]).toBe(`✓ Chromium at ${process.execPath}`);
    expect(out[5]).toMatch(/^[✓✗] fonts: /);
    // exit 0 exactly when every line passes (fonts depend on the machine)
    const allPass = out.every((l) => l.startsWith('✓'));
    expect(r.exitCode, r.stderr).toBe(allPass ? 0 : 1);
  });

  it('--json gives the checks; a missing Chromium fails its check and the exit code', async () => {
    const r = await p.cli(['status', '--json'], { env: { FACET_CHROMIUM: '/nonexistent/chromium' } });
    expect(r.exitCode).toBe(1);
    const status = JSON.parse(r.stdout);
    expect(status.ok).toBe(false);
    expect(status.checks.map((c: { name: string }) => c.name)).toEqual([
      'profile',
      'server',
      'credentials',
      'version',
      'chromium',
      'fonts',
    ]);
    expect(status.checks.find((c: { name: string }) => c.name === 'chromium')).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/no Chromium at \/nonexistent\/chromium/),
    });
    expect(r.stderr).toMatch(/checks failed/);
  });

  it('says where credentials come from, and fails on refused ones', async () => {
    const r = await p.cli(['status', '--json'], { env: { FACET_API_KEY: 'fk_wrong_wrong_wrong' } });
    expect(r.exitCode).toBe(1);
    const status = JSON.parse(r.stdout);
    expect(status.checks[0].detail).toMatch(/API key from env FACET_API_KEY, access token from config file/);
    expect(status.checks.find((c: { name: string }) => c.name === 'credentials')).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/INVALID_API_KEY/),
    });
  });

  it('fails every line it cannot check when nothing answers and there are no credentials', async () => {
    const r = await runCli(tempDir('cfg'), ['status', '--base-url', 'http://127.0.0.1:9', '--json']);
    expect(r.exitCode).toBe(1);
    const status = JSON.parse(r.stdout);
    expect(status.checks.slice(0, 4).map((c: { ok: boolean }) => c.ok)).toEqual([false, false, false, false]);
    expect(status.checks[0].detail).toMatch(/base URL from flag/);
    expect(status.checks[1].detail).toMatch(/does not answer/);
  });

  it('checks every other profile too, as gh auth status does; --active and --profile check one', async () => {
    ok(await p.cli(['--profile', 'staging', 'config', 'set', 'base_url', p.url]));
    ok(await p.cli(['--profile', 'staging', 'config', 'set', 'api_key', '-'], { input: p.boot.api_key }));
    ok(await p.cli(['--profile', 'gone', 'config', 'set', 'base_url', 'http://127.0.0.1:9']));
    const env = { FACET_CHROMIUM: process.execPath };
    const r = await p.cli(['status'], { env });
    const out = lines(r.stdout);
    expect(out).toContain('Other profiles (facet config use NAME):');
    expect(out).toContain(`✓ profile "staging": ${p.url} answers; logged in as admin (${p.boot.user_id}, admin)`);
    expect(out.find((l) => l.includes('"gone"'))).toMatch(/^✗ profile "gone": http:\/\/127\.0\.0\.1:9 does not answer/);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/--active checks only the profile in use/);
    const json = JSON.parse((await p.cli(['status', '--json'], { env })).stdout);
    expect(json.profiles.map((c: { name: string; ok: boolean }) => [c.name, c.ok])).toEqual([
      ['staging', true],
      ['gone', false],
    ]);
    // Only the profile in use: the stale one no longer fails the run.
    for (const args of [
      ['status', '--active', '--json'],
      ['--profile', 'local', 'status', '--json'],
    ]) {
      const one = await p.cli(args, { env });
      expect(JSON.parse(one.stdout).profiles).toEqual([]);
      expect(one.stdout).not.toMatch(/"gone"/);
    }
    ok(await p.cli(['config', 'profiles', 'delete', 'gone', '--yes']));
    ok(await p.cli(['config', 'profiles', 'delete', 'staging', '--yes']));
  });
});

describe('facet auth token', () => {
  it('prints the raw credential the profile uses, and the others on request', async () => {
    expect(ok(await p.cli(['auth', 'token'])).stdout).toBe(p.boot.api_key + '\n');
    expect(ok(await p.cli(['auth', 'token', '--type', 'access-token'])).stdout).toBe(p.boot.access_token + '\n');
    expect(ok(await p.cli(['auth', 'token', '--type', 'admin-key'])).stdout).toBe(p.boot.admin_key + '\n');
    expect(okJson(await p.cli(['auth', 'token', '--json']))).toEqual({
      profile: 'local',
      type: 'api-key',
      source: 'config',
      token: p.boot.api_key,
    });
  });

  it('the printed token works for a call, and the environment wins as it does for calls', async () => {
    const token = ok(await p.cli(['auth', 'token'])).stdout.trim();
    const res = await p.fetch('/auth/whoami', { headers: { 'x-api-key': token } });
    expect(res.status).toBe(200);
    expect(ok(await p.cli(['auth', 'token'], { env: { FACET_API_KEY: 'fk_from_env' } })).stdout).toBe('fk_from_env\n');
  });

  it('a profile without that credential exits 3 with nothing on stdout', async () => {
    const r = await runCli(tempDir('cfg'), ['auth', 'token']);
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/has no API key or access token/);
  });
});
