import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, okJson, runCli, startPlatform, tempDir, type Platform } from '../helpers/platform.js';

let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
});
afterAll(() => p?.cleanup());

describe('profiles and login', () => {
  it('facet serve set up a current "local" profile, in a 0600 config file', async () => {
    const profiles = okJson(await p.cli(['config', 'profiles', '--json']));
    expect(profiles).toEqual([
      { name: 'local', current: true, base_url: p.url, credentials: ['api_key', 'access_token', 'admin_key'] },
    ]);
    const list = okJson(await p.cli(['config', 'list', '--json']));
    expect(statSync(list.file).mode & 0o777).toBe(0o600);
    // secrets are masked everywhere the CLI shows config
    expect(JSON.stringify(list)).not.toContain(p.boot.api_key);
    const get = ok(await p.cli(['config', 'get', 'api_key']));
    expect(get.stdout).not.toContain(p.boot.api_key);
  });

  it('a config folder it makes is private (0700), writes replace the file whole, and a broken file is named', async () => {
    const cfg = path.join(tempDir('cfg-parent'), 'facet', 'config');
    ok(await runCli(cfg, ['--profile', 'a.b', 'config', 'set', 'base_url', p.url]));
    expect(statSync(cfg).mode & 0o777).toBe(0o700);
    const file = path.join(cfg, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // A profile name with a dot stays one name; nothing but the file is left in the folder.
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles['a.b']).toEqual({ base_url: p.url });
    expect(readdirSync(cfg)).toEqual(['config.json']);
    writeFileSync(file, '{ "profiles": ');
    const broken = await runCli(cfg, ['config', 'list']);
    expect(broken.exitCode).toBe(1);
    expect(broken.stderr).toContain(file);
    expect(broken.stderr).toMatch(/not valid JSON/);
  });

  it('login --api-key-stdin checks the key and saves a profile; logout removes it', async () => {
    const cfg = tempDir('cfg');
    const login = await runCli(cfg, ['login', '--api-key-stdin', '--base-url', p.url, '--profile', 'ci'], {
      input: p.boot.api_key + '\n',
    });
    expect(login.exitCode, login.stderr).toBe(0);
    expect(login.stderr).toMatch(/logged in as admin/);
    const who = ok(await runCli(cfg, ['whoami', '--json']));
    expect(JSON.parse(who.stdout)).toMatchObject({ profile: 'ci', via: 'key', user: { name: 'admin' } });

    const wrong = await runCli(cfg, ['login', '--api-key-stdin', '--base-url', p.url, '--profile', 'bad'], {
      input: 'fk_nope',
    });
    expect(wrong.exitCode).toBe(3);
    const profiles = okJson(await runCli(cfg, ['config', 'profiles', '--json']));
    expect(profiles.map((x: { name: string }) => x.name)).toEqual(['ci']);

    const out = await runCli(cfg, ['logout']);
    expect(out.exitCode).toBe(0);
    const after = await runCli(cfg, ['whoami']);
    expect(after.exitCode).toBe(3);
    expect(after.stderr).toMatch(/no credentials/);
  });

  it('login --local adopts bootstrap.json', async () => {
    const cfg = tempDir('cfg');
    const r = await runCli(cfg, ['login', '--local', '--data-dir', p.dataDir]);
    expect(r.exitCode, r.stderr).toBe(0);
    const keys = await runCli(cfg, ['keys', 'list', '--json']);
    expect(keys.exitCode).toBe(0);
  });

  it('never prompts without a TTY: a missing value is a usage error naming the options', async () => {
    const r = await runCli(tempDir('cfg'), ['login']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--api-key-stdin/);
  });

  it('environment variables override the profile', async () => {
    const r = await p.cli(['whoami'], { env: { FACET_API_KEY: 'fk_wrong' } });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/INVALID_API_KEY/);
    const base = await p.cli(['keys', 'list'], { env: { FACET_BASE_URL: 'http://127.0.0.1:9' } });
    expect(base.exitCode).toBe(1);
    expect(base.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:9/);
  });

  it('config set/unset/use', async () => {
    const cfg = tempDir('cfg');
    expect((await runCli(cfg, ['config', 'set', 'base_url', 'not a url'])).exitCode).toBe(2);
    expect((await runCli(cfg, ['config', 'set', 'nonsense', 'x'])).exitCode).toBe(2);
    expect((await runCli(cfg, ['--profile', 'b', 'config', 'set', 'base_url', p.url])).exitCode).toBe(0);
    expect((await runCli(cfg, ['config', 'use', 'nope'])).exitCode).toBe(4);
    expect((await runCli(cfg, ['config', 'use', 'b'])).exitCode).toBe(0);
    expect(ok(await runCli(cfg, ['config', 'get', 'base_url'])).stdout.trim()).toBe(p.url);
    expect((await runCli(cfg, ['config', 'unset', 'base_url'])).exitCode).toBe(0);
    expect((await runCli(cfg, ['config', 'get', 'base_url'])).exitCode).toBe(4);
  });
});

describe('facet api and --debug', () => {
  it('makes raw calls with the right credentials per surface', async () => {
    const keys = await p.cli(['api', 'GET', '/auth/api-keys']);
    expect(keys.exitCode, keys.stderr).toBe(0);
    expect(Array.isArray(JSON.parse(keys.stdout))).toBe(true);
    const created = ok(await p.cli(['api', 'POST', '/auth/api-keys', '-f', 'name=raw', '-F', 'expires_in_days=2']));
    expect(JSON.parse(created.stdout)).toMatchObject({ name: 'raw' });
    const usage = ok(await p.cli(['api', 'GET', '/admin/api-key-usage', '-F', 'limit=5', '-i']));
    expect(usage.stdout).toMatch(/^HTTP 200/);
    expect(usage.stdout).toMatch(/x-request-id: req_/);
    const v2 = await p.cli(['api', 'GET', '/v2/nothing']);
    expect(v2.exitCode).toBe(4);
    expect(JSON.parse(v2.stdout)).toMatchObject({ status: 'error', code: 'NOT_FOUND' });
    const bad = await p.cli(['api', 'POST', '/auth/api-keys', '-F', 'expires_in_days=0']);
    expect(bad.exitCode).toBe(1);
    expect(JSON.parse(bad.stdout).detail[0].loc).toEqual(['body', 'expires_in_days']);
    const header = ok(await p.cli(['api', 'GET', '/healthz', '-H', 'X-Request-Id: mine-1', '-i']));
    expect(header.stdout).toMatch(/x-request-id: mine-1/);
  });

  it('--debug traces method, URL, status and time with every credential redacted', async () => {
    const r = await p.cli(['--debug', 'admin', 'usage']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/\[debug\] → GET http:\/\/127\.0\.0\.1:\d+\/admin\/api-key-usage/);
    expect(r.stderr).toMatch(/\[debug\] ← 200 GET .* \d+ ms request-id=req_/);
    expect(r.stderr).toContain('[redacted]');
    expect(r.stderr).not.toContain(p.boot.api_key);
    expect(r.stderr).not.toContain(p.boot.admin_key);
  });
});

describe('the platform itself', () => {
  it('serves a valid OpenAPI 3.1 document generated from the contract', async () => {
    const doc = await (await p.fetch('/openapi.json')).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/auth/api-keys'].post.responses['201']).toBeDefined();
    expect(doc.paths['/admin/api-keys/{key_id}/freeze'].post.security).toEqual([{ apiKeyHeader: [] }]);
    const { Validator } = await import('@seriousme/openapi-schema-validator');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('answers /healthz and a request id on every response', async () => {
    const res = await p.fetch('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok' });
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    const missing = await p.fetch('/nowhere');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('writes bootstrap.json with mode 0600 and the documented fields', () => {
    const file = path.join(p.dataDir, 'bootstrap.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const boot = JSON.parse(readFileSync(file, 'utf8'));
    for (const k of ['base_url', 'user_id', 'access_token', 'api_key', 'admin_key'])
      expect(boot[k]).toEqual(expect.any(String));
  });

  it('serve --json shows the keys on the first start only', async () => {
    const q = await startPlatform({ args: ['--json'] });
    await expect.poll(() => q.serverOutput()).toContain(q.boot.api_key);
    const again = await q.restart();
    await expect.poll(() => again.serverOutput()).toContain(`"url": "${again.url}"`);
    expect(again.serverOutput()).not.toContain(q.boot.api_key);
    expect(again.serverOutput()).not.toContain(q.boot.admin_key);
    again.cleanup();
  });

  it('refuses a second server on the same data dir, and takes over after the first is gone', async () => {
    const second = await runCli(p.configDir, ['serve', '--port', '0', '--data-dir', p.dataDir, '--log-level', 'warn'], {
      timeout: 15_000,
    });
    expect(second.exitCode).toBe(1);
    expect(second.stderr).toMatch(/another facet serve \(pid \d+\) is using/);
    // the first one is untouched
    expect((await p.fetch('/healthz')).status).toBe(200);
  });

  it('shuts down cleanly on SIGTERM', async () => {
    const q = await startPlatform();
    await q.stop();
    expect(q.serverOutput()).toMatch(/SIGTERM, finishing in-flight requests/);
    expect(q.serverOutput()).toMatch(/facet serve: stopped/);
    q.cleanup();
  });
});

describe('pipes', () => {
  it('stops quietly when the reader goes away (facet … | head)', async () => {
    const { execa } = await import('execa');
    const r = await execa(
      'bash',
      [
        '-c',
        `node ${JSON.stringify(path.resolve('bin/facet.js'))} api GET /openapi.json | head -c 10; echo " \${PIPESTATUS[0]}"`,
      ],
      {
        env: { FACET_CONFIG_DIR: p.configDir, CI: 'true' },
        reject: false,
      },
    );
    expect(r.stdout).toMatch(/ 0$/);
    expect(r.stderr).not.toMatch(/EPIPE/);
  });
});

describe('usage errors and help', () => {
  it('exit 2 on unknown commands and options; 0 on help and version', async () => {
    const cfg = tempDir('cfg');
    expect((await runCli(cfg, ['nonsense'])).exitCode).toBe(2);
    expect((await runCli(cfg, ['keys', 'list', '--what'])).exitCode).toBe(2);
    const help = await runCli(cfg, ['keys', '--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(/create/);
    const helpKeys = await runCli(cfg, ['help', 'keys']);
    expect(helpKeys.exitCode).toBe(0);
    expect(helpKeys.stdout).toMatch(/create/);
    const top = ok(await runCli(cfg, ['--help']));
    expect(top.stdout).toMatch(/Exit codes/);
    for (const g of ['keys', 'admin', 'serve', 'config', 'login']) expect(top.stdout).toContain(g);
    expect(ok(await runCli(cfg, ['--version'])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("every command's help lists the global options it honours", async () => {
    const cfg = tempDir('cfg');
    const globals = [
      '--json',
      '--jq <expr>',
      '--profile <name>',
      '--base-url <url>',
      '--quiet',
      '--no-color',
      '--no-input',
      '--debug',
      '--yes',
    ];
    for (const cmd of [
      ['keys', 'list'],
      ['beta', 'scrape', 'wait'],
      ['livedocs', 'resources', 'add-url'],
      ['extract'],
      ['serve'],
    ]) {
      const out = ok(await runCli(cfg, [...cmd, '--help'])).stdout;
      const section = out.slice(out.indexOf('Global Options:'));
      expect(out, cmd.join(' ')).toContain('Global Options:');
      for (const g of globals) expect(section, `${cmd.join(' ')} ${g}`).toContain(g);
    }
    expect(ok(await runCli(cfg, ['--help'])).stdout).toContain('facet help environment');
  });

  it("an error's hint names the CLI command and flag, not the HTTP route and field; --json keeps the server's own message, on stderr", async () => {
    const r = await p.cli(['slides', 'create', 'Anything', '--theme', 'no-such-theme']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('"no-such-theme" is not a theme you can use; list them with `facet slides themes`');
    expect(r.stderr).not.toContain('/v2/ppt-themes');
    // The flag the person typed, not the request field it set.
    expect(r.stderr).toContain('error: --theme "no-such-theme"');
    expect(r.stderr).not.toContain('ai_theme_id');
    const j = await p.cli(['slides', 'create', 'Anything', '--theme', 'no-such-theme', '--json']);
    expect(j.stdout).toBe('');
    expect(JSON.parse(j.stderr).error.message).toContain('ppt_config.ai_theme_id "no-such-theme"');
    expect(JSON.parse(j.stderr).error.message).toContain('list them with GET /v2/ppt-themes');
  });

  it('`facet help environment` lists every FACET_ variable the CLI and facet serve read', async () => {
    const out = ok(await runCli(tempDir('cfg'), ['help', 'environment'])).stdout;
    const names = new Set<string>();
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, e.name);
        if (e.isDirectory()) walk(file);
        else if (file.endsWith('.ts'))
          for (const m of readFileSync(file, 'utf8').matchAll(/\bFACET_[A-Z0-9_]*[A-Z0-9]\b/g)) names.add(m[0]);
      }
    };
    walk(path.join(import.meta.dirname, '../../src'));
    // Not variables: the build's version constant, and the name a help example gives a shell variable.
    for (const notRead of ['FACET_VERSION__', 'FACET_KEY']) names.delete(notRead);
    expect(names.size).toBeGreaterThan(30);
    for (const name of names) expect(out, name).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
  });
});
