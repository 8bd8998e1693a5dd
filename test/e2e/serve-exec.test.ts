import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, okJson, runCli, startPlatform, tempDir, type Platform } from '../helpers/platform.js';

const node = JSON.stringify(process.execPath);
const facet = `${node} ${JSON.stringify(BIN)}`;

function fixtures(dir: string, doc: unknown): string {
  const file = path.join(dir, 'fixtures.json');
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

const SEED = {
  fixtures: [
    { name: 'proj', method: 'POST', path: '/projects', params: { name: 'seeded' } },
    {
      name: 'doc',
      method: 'POST',
      path: '/v2/livedocs',
      params: { name: 'notes for ${proj:name}', description: 'project ${proj:id}' },
    },
    { name: 'again', method: 'GET', path: '/v2/livedocs/${doc:data.short_id}' },
  ],
};

function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

const dataDirOf = (stderr: string) => /data in (\S+)/.exec(stderr)?.[1];

describe('facet serve --exec', () => {
  it('runs the command against a throwaway platform, with its URL and credentials in the environment, and exits with its code', async () => {
    const cfg = tempDir('cfg');
    const out = path.join(tempDir('out'), 'who.json');
    const r = await runCli(cfg, [
      'serve',
      '--exec',
      `${facet} whoami --json > ${JSON.stringify(out)} && env | grep '^FACET_' | sort && exit 7`,
    ]);
    expect(r.exitCode, r.stderr).toBe(7);
    const who = JSON.parse(readFileSync(out, 'utf8'));
    const baseUrl = /FACET_BASE_URL=(\S+)/.exec(r.stdout)?.[1];
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(baseUrl).not.toBe('http://127.0.0.1:8787'); // a free port, not the default
    expect(who).toMatchObject({ base_url: baseUrl, user: { name: 'admin' } });
    expect(r.stdout).toMatch(/^FACET_API_KEY=fk_/m);
    expect(r.stdout).toMatch(/^FACET_ACCESS_TOKEN=\S+/m);
    expect(r.stdout).toMatch(/^FACET_ADMIN_KEY=\S+/m);
    // the CLI's config is left alone, and the temporary data dir is gone
    expect(okJson(await runCli(cfg, ['config', 'profiles', '--json']))).toEqual([]);
    const dataDir = dataDirOf(r.stderr);
    expect(dataDir).toBeTruthy();
    expect(existsSync(dataDir!)).toBe(false);
    // a failing command gets the platform's log on stderr
    expect(r.stderr).toMatch(/the platform's log:\n\{.*Server listening/);
  });

  it('exits 0 when the command succeeds, prints no log, and keeps a --data-dir it was given', async () => {
    const dataDir = tempDir('keep');
    const r = await runCli(tempDir('cfg'), ['serve', '--data-dir', dataDir, '--exec', `${facet} keys list --json`]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(expect.any(Array));
    expect(r.stderr).not.toMatch(/platform's log/);
    expect(existsSync(path.join(dataDir, 'bootstrap.json'))).toBe(true);
  });

  it('CMD finds `facet` on its PATH without `npm link`: this CLI, through a private shim', async () => {
    // A PATH with no facet on it, as on a machine where the package was never linked.
    const r = await runCli(tempDir('cfg'), ['serve', '--exec', 'facet whoami --json && command -v facet'], {
      env: { PATH: '/usr/bin:/bin' },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const [json, where] = [
      r.stdout.slice(0, r.stdout.lastIndexOf('}') + 1),
      r.stdout.slice(r.stdout.lastIndexOf('}') + 1),
    ];
    expect(JSON.parse(json)).toMatchObject({ user: { name: 'admin' } });
    expect(where.trim()).toMatch(/facet-exec-[^/]+\/bin\/facet$/);
  });

  it('--seed applies fixtures before the command, references resolved', async () => {
    const file = fixtures(tempDir('fx'), SEED);
    const r = await runCli(tempDir('cfg'), ['serve', '--seed', file, '--exec', `${facet} livedocs list --json`]);
    expect(r.exitCode, r.stderr).toBe(0);
    const docs = JSON.parse(r.stdout);
    expect(docs.items ?? docs).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'notes for seeded' })]));
    expect(r.stderr).toMatch(/seeded again: GET \/v2\/livedocs\/ld_\w+ → 200/);
  });

  it('a failing fixture stops before the command, naming the step, with the exit code of its status', async () => {
    const file = fixtures(tempDir('fx'), {
      fixtures: [{ name: 'missing', method: 'GET', path: '/v2/livedocs/ld_0000000000000000' }],
    });
    const r = await runCli(tempDir('cfg'), ['serve', '--seed', file, '--exec', 'echo never-ran']);
    expect(r.exitCode).toBe(4);
    expect(r.stdout).not.toMatch(/never-ran/);
    expect(r.stderr).toMatch(/fixture "missing" \(GET \/v2\/livedocs\/ld_0000000000000000\) failed: HTTP 404/);
  });

  it('a fixtures file with a reference to no earlier step is a usage error, nothing sent', async () => {
    const file = fixtures(tempDir('fx'), {
      fixtures: [
        { name: 'a', method: 'GET', path: '/v2/livedocs/${b:data.id}' },
        { name: 'b', method: 'GET', path: '/models' },
      ],
    });
    const r = await runCli(tempDir('cfg'), ['serve', '--seed', file, '--exec', 'echo never-ran']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/fixtures\[0\]: \$\{b:…\} refers to no earlier fixture/);
  });

  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)('%s stops the command (and what it started) and the platform, and cleans up', async (signal, code) => {
    const marker = path.join(tempDir('mark'), 'grandchild.pid');
    // The shell runs two commands, so it cannot exec the last one: the signal must reach its children.
    const script = `${node} -e "require('fs').writeFileSync(${JSON.stringify(marker).replace(/"/g, "'")}, String(process.pid)); setTimeout(() => {}, 60000)"; echo after`;
    const proc = execa('node', [BIN, 'serve', '--exec', script], {
      env: { FACET_CONFIG_DIR: tempDir('cfg'), NO_COLOR: '1', CI: 'true' },
      reject: false,
    });
    let err = '';
    proc.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    await expect.poll(() => existsSync(marker), { timeout: 20_000 }).toBe(true);
    const grandchild = Number(readFileSync(marker, 'utf8'));
    const started = Date.now();
    proc.kill(signal);
    const r = await proc;
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(r.exitCode, err).toBe(code);
    expect(existsSync(dataDirOf(err)!)).toBe(false);
    // gone with its group (a zombie waiting for its reaper counts as gone)
    await expect.poll(() => alive(grandchild), { timeout: 10_000 }).toBe(false);
  });
});

describe('facet serve seed FILE', () => {
  let p: Platform;
  beforeAll(async () => {
    p = await startPlatform();
  });
  afterAll(() => p?.cleanup());

  it("applies the fixtures to the running platform of the profile's base URL", async () => {
    const file = fixtures(tempDir('fx'), SEED);
    const applied = okJson(await p.cli(['serve', 'seed', file, '--json']));
    expect(applied.map((s: { name: string; status: number }) => [s.name, s.status])).toEqual([
      ['proj', 201],
      ['doc', 200],
      ['again', 200],
    ]);
    expect(applied[1].response.data.description).toBe(`project ${applied[0].response.id}`);
    const docs = okJson(await p.cli(['livedocs', 'list', '--json']));
    expect(JSON.stringify(docs)).toContain('notes for seeded');
  });
});
