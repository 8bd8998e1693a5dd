import { chmodSync, lstatSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { execa } from 'execa';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli, startPlatform, tempDir, type CliResult, type Platform } from '../helpers/platform.js';

const ok = (r: CliResult) => {
  expect(r.exitCode, r.stderr).toBe(0);
  return r;
};
const json = (r: CliResult) => JSON.parse(ok(r).stdout);

/** Every file and folder under dir whose mode lets group or others in. */
function readableByOthers(dir: string): string[] {
  const found: string[] = [];
  const walk = (entry: string) => {
    const st = lstatSync(entry);
    if (st.isSymbolicLink()) return;
    if ((st.mode & 0o077) !== 0) found.push(`${path.relative(dir, entry) || '.'} ${(st.mode & 0o777).toString(8)}`);
    if (st.isDirectory()) for (const name of readdirSync(entry)) walk(path.join(entry, name));
  };
  walk(dir);
  return found;
}

// The usual umask (022): only `facet serve`'s own makes what it writes private, not this process's.
process.umask(0o022);

describe('the data dir is private to its owner', () => {
  let p: Platform;
  beforeAll(async () => {
    // info level: the request log lines are what the redaction test reads.
    p = await startPlatform({ args: ['--log-level', 'info'] });
  });
  afterAll(() => p?.cleanup());

  it('after a full flow, no file or folder is readable by group or others', async () => {
    const ld = json(await p.cli(['livedocs', 'create', 'Private', '--json'])).short_id;
    const dir = tempDir('inputs');
    writeFileSync(path.join(dir, 'notes.md'), '# Harbour\n\nThe harbour light is green at night.\n');
    json(await p.cli(['livedocs', 'resources', 'upload-doc', ld, path.join(dir, 'notes.md'), '--json']));
    ok(await p.cli(['ask', 'What colour is the harbour light?', '--livedoc', ld]));
    const task = json(
      await p.cli([
        'tasks',
        'create',
        '--kind',
        'illustration',
        '--prompt',
        'A green harbour light',
        '--size',
        '64x64',
        '--wait',
        '--json',
      ]),
    );
    expect(task.status).toBe('succeeded');
    const project = json(await p.cli(['projects', 'create', 'Docs', '--json']));
    json(await p.cli(['projects', 'upload', project.id, path.join(dir, 'notes.md'), '--json']));
    ok(await p.cli(['keys', 'create', '--name', 'ci']));

    // The database, its WAL and SHM, bootstrap.json, uploads and task outputs are all there now.
    const names = readdirSync(p.dataDir);
    expect(names).toEqual(expect.arrayContaining(['facet.db', 'facet.db-wal', 'bootstrap.json', 'files']));
    expect(readableByOthers(p.dataDir)).toEqual([]);
  });

  it('an offline verb that makes a new data dir makes it private too', async () => {
    const dataDir = path.join(tempDir('offline'), 'data');
    ok(await runCli(p.configDir, ['serve', 'users', 'create', 'ops', '--data-dir', dataDir, '--create']));
    expect(readdirSync(dataDir)).toEqual(expect.arrayContaining(['facet.db']));
    expect(readableByOthers(dataDir)).toEqual([]);
  });

  it('request logs carry neither signed download links nor conversation stream keys', async () => {
    const ld = json(await p.cli(['livedocs', 'create', 'Logged', '--json'])).short_id;
    const file = path.join(tempDir('tides'), 'tides.md');
    writeFileSync(file, '# Tides\n\nSpring tides reach four metres at the wharf.\n');
    const doc = json(await p.cli(['livedocs', 'resources', 'upload', ld, file, '--json']));
    const signed = ok(await p.cli(['livedocs', 'resources', 'download', ld, doc.id, '--url-only'])).stdout.trim();
    const sig = new URL(signed).searchParams.get('sig')!;
    expect(sig.length).toBeGreaterThan(10);
    expect((await fetch(signed)).status).toBe(200);

    const started = await p.fetch('/v2/conversations', {
      method: 'POST',
      headers: { Authorization: `Bearer ${p.boot.api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'How high are spring tides?', live_doc_short_id: ld }),
    });
    const streamKey = (await started.json()).data.stream_key as string;
    const stream = await p.fetch(`/v2/conversations/stream/${streamKey}`, {
      headers: { Authorization: `Bearer ${p.boot.api_key}` },
    });
    await stream.text();

    await expect.poll(() => p.serverOutput()).toContain('/v2/conversations/stream/[redacted]');
    await expect.poll(() => p.serverOutput()).toContain('sig=[redacted]');
    expect(p.serverOutput()).not.toContain(sig);
    expect(p.serverOutput()).not.toContain(streamKey);
  });
});

describe('an existing data dir with loose modes', () => {
  it('is tightened at start, and the server says so once', async () => {
    const dataDir = tempDir('loose');
    mkdirSync(path.join(dataDir, 'files', 'old'), { recursive: true });
    writeFileSync(path.join(dataDir, 'files', 'old', 'upload.bin'), 'x');
    chmodSync(path.join(dataDir, 'files', 'old', 'upload.bin'), 0o644);
    chmodSync(path.join(dataDir, 'files', 'old'), 0o755);
    chmodSync(path.join(dataDir, 'files'), 0o755);
    chmodSync(dataDir, 0o755);

    const p = await startPlatform({ dataDir });
    try {
      expect(readableByOthers(dataDir)).toEqual([]);
      expect(p.serverOutput()).toMatch(/was readable by other users; made \d+ files and folders private/);
      const again = await p.restart();
      expect(again.serverOutput()).not.toMatch(/readable by other users/);
      again.cleanup();
    } finally {
      p.cleanup();
    }
  });
});

describe('the data-dir lock', () => {
  it('is released by the kernel: a restart right after kill -9 succeeds, a second live server is still refused', async () => {
    const dataDir = tempDir('lock');
    const configDir = tempDir('lock-config');
    // A parent that never reaps its child, as a supervisor that has not got round to it yet: the
    // killed server stays a zombie, which a pid-liveness check takes for a live server.
    const parent = execa(
      'python3',
      [
        '-c',
        NEVER_REAPS,
        'node',
        BIN,
        'serve',
        '--port',
        '0',
        '--data-dir',
        dataDir,
        '--log-level',
        'warn',
        '--no-profile',
      ],
      {
        env: { FACET_CONFIG_DIR: configDir, CI: 'true' },
        reject: false,
        buffer: false,
      },
    );
    try {
      let out = '';
      parent.stdout!.on('data', (c: Buffer) => (out += c.toString()));
      await expect.poll(() => out, { timeout: 20_000 }).toMatch(/listening on http/);
      const pid = Number(/^child (\d+)$/m.exec(out)![1]);
      process.kill(pid, 'SIGKILL');
      await expect.poll(() => readFileSync(`/proc/${pid}/stat`, 'utf8').split(' ')[2]).toBe('Z');

      const q = await startPlatform({ dataDir, configDir });
      try {
        expect((await q.fetch('/healthz')).status).toBe(200);
        const second = await runCli(
          q.configDir,
          ['serve', '--port', '0', '--data-dir', q.dataDir, '--log-level', 'warn'],
          { timeout: 15_000 },
        );
        expect(second.exitCode).toBe(1);
        expect(second.stderr).toMatch(/another facet serve \(pid \d+\) is using/);
        expect((await q.fetch('/healthz')).status).toBe(200);
      } finally {
        q.cleanup();
      }
    } finally {
      parent.kill('SIGKILL');
    }
  });
});

/** Starts the command in argv, says its pid, copies its stderr to stdout, and never waits for it. */
const NEVER_REAPS = `
import subprocess, sys, time
p = subprocess.Popen(sys.argv[1:], stderr=subprocess.PIPE)
print("child", p.pid, flush=True)
for line in p.stderr:
    sys.stdout.write(line.decode()); sys.stdout.flush()
time.sleep(600)
`;
