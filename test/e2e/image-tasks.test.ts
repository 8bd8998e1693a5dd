import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, okJson, startPlatform, tempDir, type CliResult, type Platform } from '../helpers/platform.js';
import { zipNames } from '../helpers/zip.js';

const CHROMIUM = process.env.FACET_CHROMIUM ?? '/usr/bin/chromium';

/** A small site on 127.0.0.1: a page, a page that answers only when released, one that fails on demand. */
function startSite() {
  let flaky = true;
  const held: http.ServerResponse[] = [];
  let release = false;
  const server = http.createServer((req, res) => {
    if (req.url === '/page.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<html><head><title>Harbour guide</title></head><body><h1>Lighthouse</h1><p>The lighthouse keeps the harbour safe; the lighthouse light turns all night over the harbour.</p></body></html>',
      );
    } else if (req.url === '/long.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<html><head><title>Long</title></head><body style="margin:0"><div style="height:2000px;background:linear-gradient(#fff,#00f)">tall</div></body></html>',
      );
    } else if (req.url?.startsWith('/slow')) {
      if (release) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('slow page released: lanterns lanterns');
      } else held.push(res);
    } else if (req.url === '/flaky') {
      if (flaky) {
        res.writeHead(500);
        res.end('broken');
      } else {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('fixed page about gardens and gardens');
      }
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  return new Promise<{ url: string; fix(): void; releaseSlow(): void; close(): void }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        fix: () => (flaky = false),
        releaseSlow: () => {
          release = true;
          for (const r of held.splice(0)) r.destroy();
        },
        close: () => {
          for (const r of held.splice(0)) r.destroy();
          server.closeAllConnections();
          server.close();
        },
      });
    });
  });
}

function pngSize(buf: Buffer) {
  expect(buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

let p: Platform;
let site: Awaited<ReturnType<typeof startSite>>;
const json = (r: CliResult) => okJson(r);

beforeAll(async () => {
  site = await startSite();
  p = await startPlatform({ args: ['--max-upload-mb', '1', '--workers', '2'] });
});
afterAll(() => {
  site?.close();
  p?.cleanup();
});

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`condition not met: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const taskOf = (id: string) => p.cli(['tasks', 'get', id, '--json']).then((r) => json(r));

describe('projects, files and sites through the CLI', () => {
  it('creates a project, uploads a file, adds and removes a site, updates and lists', async () => {
    const created = await p.cli(['projects', 'create', 'Harbour', '--description', 'posters', '--json']);
    expect(created.exitCode, created.stderr).toBe(0);
    const project = json(created);
    expect(project).toMatchObject({ name: 'Harbour', description: 'posters', is_default: false });

    const dir = tempDir('upload');
    writeFileSync(path.join(dir, 'brief.md'), '# Brief\nA lighthouse poster.\n');
    const up = await p.cli(['projects', 'upload', project.id, path.join(dir, 'brief.md'), '--json']);
    expect(up.exitCode, up.stderr).toBe(0);
    expect(json(up)[0]).toMatchObject({
      name: 'brief.md',
      size: 29,
      mime_type: expect.stringMatching(/^text\/markdown/),
    });
    const files = json(await p.cli(['projects', 'files', project.id, '--json']));
    expect(files.map((f: { name: string }) => f.name)).toEqual(['brief.md']);

    const siteId = ok(await p.cli(['projects', 'add-site', project.id, `${site.url}/page.html`])).stdout.trim();
    expect(siteId).toMatch(/^site_/);
    const sites = json(await p.cli(['projects', 'sites', project.id, '--json']));
    expect(sites).toEqual([expect.objectContaining({ id: siteId, url: `${site.url}/page.html` })]);
    const extra = ok(await p.cli(['projects', 'add-site', project.id, `${site.url}/other`])).stdout.trim();
    expect((await p.cli(['projects', 'remove-site', project.id, extra, '--yes'])).exitCode).toBe(0);
    expect(json(await p.cli(['projects', 'sites', project.id, '--json']))).toHaveLength(1);

    const updated = json(await p.cli(['projects', 'update', project.id, '--name', 'Harbour 2', '--json']));
    expect(updated).toMatchObject({ id: project.id, name: 'Harbour 2', description: 'posters' });
    const list = json(await p.cli(['projects', 'list', '--json']));
    expect(list.map((x: { id: string }) => x.id)).toContain(project.id);

    const bad = await p.cli(['projects', 'add-site', project.id, 'ftp://example.org/x']);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toMatch(/http\(s\) URL/);

    // delete-file, then the project itself
    expect((await p.cli(['projects', 'delete-file', project.id, files[0].id, '--yes'])).exitCode).toBe(0);
    expect(json(await p.cli(['projects', 'files', project.id, '--json']))).toEqual([]);
  });

  it('refuses an upload over the limit with 413 in the image error shape', async () => {
    const project = json(await p.cli(['projects', 'create', 'big', '--json']));
    const dir = tempDir('big');
    writeFileSync(path.join(dir, 'big.bin'), Buffer.alloc(1024 * 1024 + 10, 1));
    const r = await p.cli(['projects', 'upload', project.id, path.join(dir, 'big.bin')]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/PAYLOAD_TOO_LARGE.*HTTP 413/);
    expect(json(await p.cli(['projects', 'files', project.id, '--json']))).toEqual([]);
  });
});

describe('illustration tasks', () => {
  it('goes from create to a downloaded PNG of the asked size, with logs, a matching ZIP and metered usage', async () => {
    const project = json(await p.cli(['projects', 'create', 'Posters', '--json']));
    const siteId = ok(await p.cli(['projects', 'add-site', project.id, `${site.url}/page.html`])).stdout.trim();
    const out = tempDir('out');
    const r = await p.cli([
      'tasks',
      'create',
      '--kind',
      'illustration',
      '--prompt',
      'A lighthouse over a night ocean',
      '--size',
      '640x360',
      '--count',
      '2',
      '--project',
      project.id,
      '--site',
      siteId,
      '--wait',
      '--out',
      out,
      '--json',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    const task = json(r);
    expect(task).toMatchObject({
      status: 'succeeded',
      kind: 'illustration',
      width: 640,
      height: 360,
      count: 2,
      project_id: project.id,
      site_id: siteId,
    });
    expect(r.stderr).toMatch(/succeeded/);
    for (const n of [1, 2])
      expect(pngSize(readFileSync(path.join(out, `illustration-${n}.png`)))).toEqual({ width: 640, height: 360 });
    expect(readFileSync(path.join(out, 'context.md'), 'utf8')).toMatch(/lighthouse/);
    const result = JSON.parse(readFileSync(path.join(out, 'result.json'), 'utf8'));
    expect(result.keywords).toContain('lighthouse');
    expect(result.images[0].seed).toMatch(/^[0-9a-f]{16}$/);

    // the tree, the ZIP and the files written all agree
    const tree = json(await p.cli(['tasks', 'files', task.id, '--json']));
    const treeFiles = tree
      .filter((n: { type: string }) => n.type === 'file')
      .map((n: { path: string }) => n.path)
      .sort();
    expect(treeFiles).toEqual([
      'context.md',
      'illustration-1.png',
      'illustration-1.svg',
      'illustration-2.png',
      'illustration-2.svg',
      'result.json',
    ]);
    expect(readdirSync(out).sort()).toEqual(treeFiles);
    const zipDir = tempDir('zip');
    const z = await p.cli(['tasks', 'download', task.id, '--zip', '--out', zipDir]);
    expect(z.exitCode, z.stderr).toBe(0);
    const zip = readFileSync(path.join(zipDir, `${task.id}.zip`));
    expect((await zipNames(zip)).sort()).toEqual(treeFiles);
    for (const n of tree.filter((x: { type: string }) => x.type === 'file')) {
      expect(statSync(path.join(out, n.path)).size).toBe(n.size);
    }

    // one file, a text preview, an image's metadata, cat
    const one = ok(await p.cli(['tasks', 'download', task.id, 'illustration-2.png', '--out', zipDir]));
    expect(one.stdout.trim()).toBe(path.join(zipDir, 'illustration-2.png'));
    const content = json(await p.cli(['tasks', 'cat', task.id, 'result.json', '--json']));
    expect(content).toMatchObject({ kind: 'text', mime_type: 'application/json', truncated: false });
    expect(JSON.parse(content.preview).prompt).toBe('A lighthouse over a night ocean');
    const img = json(await p.cli(['tasks', 'cat', task.id, 'illustration-1.png', '--json']));
    expect(img).toMatchObject({ kind: 'image', mime_type: 'image/png', preview: null });
    expect(img.download_url).toContain(`/tasks/${task.id}/artifact-files/download?path=illustration-1.png`);
    const cat = ok(await p.cli(['tasks', 'cat', task.id, 'context.md']));
    expect(cat.stdout).toMatch(/^# Site context/);

    // the resource endpoint answers inline with the right type, with the session cookie too
    const cookie = await p.fetch('/auth/session-cookie', {
      method: 'POST',
      headers: { Authorization: `Bearer ${p.boot.access_token}` },
    });
    const setCookie = cookie.headers.get('set-cookie')!.split(';')[0];
    const res = await p.fetch(`/tasks/${task.id}/artifact-files/resource?path=illustration-1.png`, {
      headers: { cookie: setCookie },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toMatch(/^inline/);
    const dl = await p.fetch(`/tasks/${task.id}/artifact-files/download?path=illustration-1.png`, {
      headers: { 'X-API-Key': p.boot.api_key },
    });
    expect(dl.headers.get('content-disposition')).toMatch(/^attachment; filename="illustration-1.png"/);
    expect(
      (
        await p.fetch(`/tasks/${task.id}/artifact-files/download?path=illustration-1.png`, {
          headers: { cookie: setCookie },
        })
      ).status,
    ).toBe(401);

    // logs are timestamped lines the engine wrote
    const logs = ok(await p.cli(['tasks', 'logs', task.id]));
    expect(logs.stdout).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z {2}queued$/m);
    expect(logs.stdout).toMatch(/fetching site/);
    expect(logs.stdout).toMatch(/rendered illustration-2\.png \(640x360/);
    expect(logs.stdout).toMatch(/succeeded$/m);

    // usage for this task: two generation calls, with tokens and cost
    const usage = json(await p.cli(['admin', 'usage', '--task', task.id, '--json']));
    expect(usage.totals.calls).toBe(2);
    expect(usage.totals.input_tokens).toBeGreaterThan(0);
    expect(usage.totals.output_tokens).toBeGreaterThan(0);
    // priced by the model catalog: 0.002 USD an image plus 0.10 USD per million prompt tokens
    expect(usage.totals.cost_usd).toBeCloseTo(2 * 0.002 + (usage.totals.input_tokens * 0.1) / 1e6, 9);
    expect(usage.keys[0].models[0].model).toBe('facet-illustration-1');
  });

  it('puts a task without a project into the default project, once per key', async () => {
    const a = json(
      await p.cli(['tasks', 'create', '--kind', 'illustration', '--prompt', 'one', '--size', '64x64', '--json']),
    );
    const b = json(
      await p.cli(['tasks', 'create', '--kind', 'illustration', '--prompt', 'two', '--size', '64x64', '--json']),
    );
    expect(a.project_id).toBe(b.project_id);
    const projects = json(await p.cli(['projects', 'list', '--json']));
    expect(projects.filter((x: { is_default: boolean }) => x.is_default)).toHaveLength(1);
    const list = json(await p.cli(['tasks', 'list', '--project', a.project_id, '--json']));
    expect(list.map((t: { id: string }) => t.id)).toEqual(expect.arrayContaining([a.id, b.id]));
    // with an access token instead of the key: the user's own default project
    const viaToken = await p.cli(
      ['tasks', 'create', '--kind', 'illustration', '--prompt', 'three', '--size', '64x64', '--json'],
      {
        env: { FACET_PROFILE: 'none', FACET_ACCESS_TOKEN: p.boot.access_token, FACET_BASE_URL: p.url },
      },
    );
    expect(viaToken.exitCode, viaToken.stderr).toBe(0);
    expect(json(viaToken).project_id).not.toBe(a.project_id);
  });

  it('validates the form with 422 and gives clear CLI usage errors', async () => {
    const noPrompt = await p.fetch('/tasks', {
      method: 'POST',
      headers: { 'X-API-Key': p.boot.api_key },
      body: formOf({ kind: 'illustration' }),
    });
    expect(noPrompt.status).toBe(422);
    expect(await noPrompt.json()).toEqual({
      detail: [{ loc: ['body', 'prompt'], msg: 'an illustration needs a prompt', type: 'custom' }],
    });
    const tooBig = await p.fetch('/tasks', {
      method: 'POST',
      headers: { 'X-API-Key': p.boot.api_key },
      body: formOf({ kind: 'illustration', prompt: 'x', size: '9000x10' }),
    });
    expect(tooBig.status).toBe(422);
    const unknown = await p.fetch('/tasks', {
      method: 'POST',
      headers: { 'X-API-Key': p.boot.api_key },
      body: formOf({ kind: 'video', prompt: 'x' }),
    });
    expect(unknown.status).toBe(422);
    const cli = await p.cli(['tasks', 'create', '--kind', 'screenshot']);
    expect(cli.exitCode).toBe(2);
    expect(cli.stderr).toMatch(/--url/);
  });
});

function formOf(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
}

describe('task lifecycle', () => {
  it('cancels a running task: the engine stops and wait exits 6', async () => {
    const project = json(await p.cli(['projects', 'create', 'Slow', '--json']));
    const siteId = ok(await p.cli(['projects', 'add-site', project.id, `${site.url}/slow`])).stdout.trim();
    const task = json(
      await p.cli([
        'tasks',
        'create',
        '--kind',
        'illustration',
        '--prompt',
        'waiting',
        '--project',
        project.id,
        '--site',
        siteId,
        '--json',
      ]),
    );
    await until(
      () => p.cli(['tasks', 'logs', task.id]).then(ok),
      (r) => /fetching site/.test(r.stdout),
    );
    expect((await taskOf(task.id)).status).toBe('running');
    const follow = p.cli(['tasks', 'logs', task.id, '--follow', '--interval', '0.2']);
    const busy = await p.cli(['projects', 'delete', project.id, '--yes']);
    expect(busy.exitCode).toBe(1);
    expect(busy.stderr).toMatch(/cancel them first.*code CONFLICT, HTTP 409/);
    const c = await p.cli(['tasks', 'cancel', task.id, '--json']);
    expect(c.exitCode, c.stderr).toBe(0);
    expect(json(c).status).toBe('canceled');
    // --follow ends by itself once the task has ended, with the lines written meanwhile
    const followed = await follow;
    expect(followed.exitCode, followed.stderr).toBe(0);
    expect(followed.stdout).toMatch(/fetching site[\s\S]*cancel requested[\s\S]*canceled while running/);
    const w = await p.cli(['tasks', 'wait', task.id]);
    expect(w.exitCode).toBe(6);
    const quiet = await p.cli(['tasks', 'wait', task.id, '--quiet']);
    expect(quiet.exitCode).toBe(6);
    expect(quiet.stderr).not.toMatch(/: canceled \(/);
    expect(w.stderr).toMatch(/canceled/);
    // Cancel's one answer (as `slides cancel`): canceled before is the outcome asked for, exit 0.
    const again = await p.cli(['tasks', 'cancel', task.id]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/was canceled before/);
    expect(ok(await p.cli(['tasks', 'logs', task.id])).stdout).toMatch(/canceled while running/);
    // once nothing runs, the project goes with its tasks
    expect((await p.cli(['projects', 'delete', project.id, '--yes'])).exitCode).toBe(0);
    expect((await p.cli(['tasks', 'get', task.id])).exitCode).toBe(4);
    expect((await p.cli(['projects', 'sites', project.id])).exitCode).toBe(4);
  });

  it('retries a failed task, which then succeeds', async () => {
    const project = json(await p.cli(['projects', 'create', 'Flaky', '--json']));
    const siteId = ok(await p.cli(['projects', 'add-site', project.id, `${site.url}/flaky`])).stdout.trim();
    const r = await p.cli([
      'tasks',
      'create',
      '--kind',
      'illustration',
      '--prompt',
      'garden',
      '--size',
      '100x100',
      '--project',
      project.id,
      '--site',
      siteId,
      '--wait',
      '--interval',
      '0.2',
    ]);
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toMatch(/failed: site .* answered HTTP 500/);
    const id = /(task_[0-9a-z]+)/.exec(r.stderr)![1];
    const failed = await taskOf(id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 2, max_attempts: 2 });
    expect(ok(await p.cli(['tasks', 'logs', id])).stdout).toMatch(/attempt 1 failed: .*retrying/);
    site.fix();
    const retried = await p.cli(['tasks', 'retry', id, '--wait', '--json']);
    expect(retried.exitCode, retried.stderr).toBe(0);
    expect(json(retried)).toMatchObject({ status: 'succeeded', error: null, attempts: 1 });
    const again = await p.cli(['tasks', 'retry', id]);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toMatch(/only a failed or canceled task can be retried/);
  });

  it.skipIf(!existsSync(CHROMIUM))(
    `takes a screenshot of a page on 127.0.0.1 (needs Chromium at ${CHROMIUM})`,
    async () => {
      const out = tempDir('shot');
      const r = await p.cli(
        [
          'tasks',
          'create',
          '--kind',
          'screenshot',
          '--url',
          `${site.url}/page.html`,
          '--size',
          '800x600',
          '--wait',
          '--out',
          out,
          '--json',
        ],
        { timeout: 90_000 },
      );
      expect(r.exitCode, r.stderr).toBe(0);
      expect(json(r).result).toMatchObject({ title: 'Harbour guide', width: 800, height: 600 });
      expect(pngSize(readFileSync(path.join(out, 'screenshot.png')))).toEqual({ width: 800, height: 600 });
      expect(JSON.parse(readFileSync(path.join(out, 'page.json'), 'utf8'))).toMatchObject({
        http_status: 200,
        title: 'Harbour guide',
      });
      const full = await p.cli(
        [
          'tasks',
          'create',
          '--kind',
          'screenshot',
          '--url',
          `${site.url}/long.html`,
          '--size',
          '640x480',
          '--full-page',
          '--wait',
          '--json',
        ],
        { timeout: 90_000 },
      );
      expect(full.exitCode, full.stderr).toBe(0);
      expect(json(full).result).toMatchObject({ width: 640, height: 2000 });
    },
    120_000,
  );

  it('fails a screenshot with install instructions when there is no browser', async () => {
    const other = await startPlatform({ args: ['--chromium', '/nonexistent/chromium'] });
    try {
      const r = await other.cli([
        'tasks',
        'create',
        '--kind',
        'screenshot',
        '--url',
        `${site.url}/page.html`,
        '--wait',
        '--interval',
        '0.2',
      ]);
      expect(r.exitCode).toBe(6);
      expect(r.stderr).toMatch(
        /no Chromium at \/nonexistent\/chromium: install one \(Debian\/Ubuntu: sudo apt-get install chromium\)/,
      );
      const id = /(task_[0-9a-z]+)/.exec(r.stderr)![1];
      expect(json(await other.cli(['tasks', 'get', id, '--json']))).toMatchObject({ status: 'failed', attempts: 1 });
    } finally {
      other.cleanup();
    }
  });
});

if (!existsSync(CHROMIUM))
  console.warn(`[skip] screenshot e2e: no Chromium at ${CHROMIUM} (apt-get install chromium, or set FACET_CHROMIUM)`);

describe('artifact security and isolation', () => {
  let taskId: string;
  beforeAll(async () => {
    const r = await p.cli([
      'tasks',
      'create',
      '--kind',
      'illustration',
      '--prompt',
      'secure',
      '--size',
      '64x64',
      '--wait',
      '--json',
    ]);
    taskId = json(r).id;
    // a symlink planted in the output folder must never be followed
    const outDir = path.join(p.dataDir, 'files', 'tasks', taskId, 'output');
    symlinkSync('/etc/passwd', path.join(outDir, 'passwd-link'));
    mkdirSync(path.join(outDir, 'sub'));
    symlinkSync('../../..', path.join(outDir, 'sub', 'up'));
    writeFileSync(path.join(outDir, 'sub', 'notes.md'), 'é'.repeat(40_000));
  });

  it('previews text with a truncation flag, cut on a whole character', async () => {
    const c = json(await p.cli(['tasks', 'cat', taskId, 'sub/notes.md', '--json']));
    expect(c).toMatchObject({ kind: 'text', path: 'sub/notes.md', size: 80_000, truncated: true });
    expect(c.preview).toBe('é'.repeat(32_768));
    const tree = json(await p.cli(['tasks', 'files', taskId, '--json']));
    expect(tree).toContainEqual(expect.objectContaining({ path: 'sub', type: 'directory', mime_type: null }));
    expect(tree).toContainEqual(expect.objectContaining({ path: 'sub/notes.md', type: 'file', size: 80_000 }));
  });

  const get = (q: string) =>
    p.fetch(`/tasks/${taskId}/artifact-files/content?path=${q}`, { headers: { 'X-API-Key': p.boot.api_key } });

  it.each([
    ['../../../../etc/passwd', 422],
    ['..%2F..%2Fbootstrap.json', 422],
    ['%2Fetc%2Fpasswd', 422],
    ['sub%252F..%252F..%252Fx', 422],
    ['..%5C..%5Cx', 422],
    ['sub/../../x', 422],
    ['passwd-link', 404],
    ['sub/up/bootstrap.json', 404],
    ['sub', 404],
    ['nope.png', 404],
  ])('path %s is refused with %i', async (q, status) => {
    const res = await get(q);
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(JSON.stringify(body)).not.toMatch(/root:|admin_key/);
    for (const kind of ['resource', 'download']) {
      const r2 = await p.fetch(`/tasks/${taskId}/artifact-files/${kind}?path=${q}`, {
        headers: { 'X-API-Key': p.boot.api_key },
      });
      expect(r2.status).toBe(status);
    }
  });

  it('leaves symlinks out of the tree and the ZIP', async () => {
    const tree = json(await p.cli(['tasks', 'files', taskId, '--json']));
    expect(tree.map((n: { path: string }) => n.path)).not.toContain('passwd-link');
    expect(tree.map((n: { path: string }) => n.path)).not.toContain('sub/up');
    const zip = Buffer.from(
      await (await p.fetch(`/tasks/${taskId}/artifacts`, { headers: { 'X-API-Key': p.boot.api_key } })).arrayBuffer(),
    );
    expect(await zipNames(zip)).not.toContain('passwd-link');
  });

  it("hides another user's tasks and projects (404)", async () => {
    const bob = await p.cli(['serve', 'users', 'create', 'carol', '--data-dir', p.dataDir, '--json']);
    expect(bob.exitCode, bob.stderr).toBe(0);
    const token = ok(await p.cli(['serve', 'token', 'carol', '--data-dir', p.dataDir])).stdout.trim();
    const env = { FACET_PROFILE: 'none', FACET_ACCESS_TOKEN: token, FACET_BASE_URL: p.url };
    const get = await p.cli(['tasks', 'get', taskId], { env });
    expect(get.exitCode).toBe(4);
    expect(get.stderr).toMatch(/NOT_FOUND/);
    for (const sub of ['', '/logs', '/artifact-files', '/artifacts', '/artifact-files/resource?path=result.json']) {
      expect((await p.fetch(`/tasks/${taskId}${sub}`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(
        404,
      );
    }
    expect(
      (await p.fetch(`/tasks/${taskId}/cancel`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } }))
        .status,
    ).toBe(404);
    const theirs = json(await p.cli(['tasks', 'list', '--json'], { env }));
    expect(theirs).toEqual([]);
    const mine = json(await p.cli(['projects', 'list', '--json']));
    const other = await p.cli(['projects', 'files', mine[0].id], { env });
    expect(other.exitCode).toBe(4);
    const create = await p.cli(
      ['tasks', 'create', '--kind', 'illustration', '--prompt', 'x', '--project', mine[0].id],
      { env },
    );
    expect(create.exitCode).toBe(4);
  });
});

describe('crash recovery', () => {
  it('runs a task again after kill -9 of the server in the middle of it', async () => {
    const project = json(await p.cli(['projects', 'create', 'Crash', '--json']));
    const slow = `${site.url}/slow?crash`;
    const siteId = ok(await p.cli(['projects', 'add-site', project.id, slow])).stdout.trim();
    const task = json(
      await p.cli([
        'tasks',
        'create',
        '--kind',
        'illustration',
        '--prompt',
        'after the crash',
        '--size',
        '120x80',
        '--project',
        project.id,
        '--site',
        siteId,
        '--json',
      ]),
    );
    await until(
      () => p.cli(['tasks', 'logs', task.id]).then(ok),
      (r) => /fetching site/.test(r.stdout),
    );
    await p.kill();
    site.releaseSlow();
    p = await startPlatform({ dataDir: p.dataDir, configDir: p.configDir, args: ['--max-upload-mb', '1'] });
    const w = await p.cli(['tasks', 'wait', task.id, '--interval', '0.2', '--json']);
    expect(w.exitCode, w.stderr).toBe(0);
    // The server's death is counted apart from the attempts (--job-max-crashes): the run after it is still attempt 1.
    expect(json(w)).toMatchObject({ status: 'succeeded', attempts: 1 });
    const logs = ok(await p.cli(['tasks', 'logs', task.id])).stdout;
    expect(logs).toMatch(
      /recovered: the server stopped during attempt 1 of 2 .*queued to run again \(server stops during this task: 1; at 2 it fails\)/,
    );
    expect(logs).toMatch(/attempt 1 of 2 started \(the server stopped 1 time\(s\) during earlier runs\)/);
  });
});
