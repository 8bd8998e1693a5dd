import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, okJson, startPlatform, tempDir, type Platform } from '../helpers/platform.js';
import { zipNames } from '../helpers/zip.js';
import { startObjectStore, type TestObjectStore } from '../helpers/s3rver.js';
import { sofficePath } from '../../src/server/engines/slides/preview.js';
import { viewerOnceDrawn } from '../helpers/deck-previews.js';

/**
 * Issue 15, files: one `facet serve` on SQLite with --object-store (an s3rver on 127.0.0.1). Every
 * file goes to the bucket, nothing stays in the files dir but work in progress, downloads are
 * redirects to presigned URLs that work without credentials, and the CLI follows them.
 */
let s3: TestObjectStore;
let p: Platform;
let dir: string;

/** Files the server left in its local files dir, outside its scratch folders. */
function localFiles(root: string, rel = ''): string[] {
  if (!existsSync(path.join(root, rel))) return [];
  return readdirSync(path.join(root, rel), { withFileTypes: true }).flatMap((e) => {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) return r === 'tmp' || r === 'work' ? [] : localFiles(root, r);
    return [r];
  });
}

beforeAll(async () => {
  s3 = await startObjectStore(['facet-e2e']);
  dir = tempDir('object-store');
  p = await startPlatform({ args: ['--object-store', 's3://facet-e2e/one'], env: s3.env });
}, 60_000);

afterAll(async () => {
  await p?.stop();
  await s3?.stop();
});

describe('facet serve --object-store on SQLite', () => {
  it('says where the files are at start-up', () => {
    expect(p.serverOutput()).toMatch(/files: s3:\/\/facet-e2e\/one at http:\/\/127\.0\.0\.1:\d+/);
  });

  it('an uploaded file goes to the bucket; download is a redirect to a presigned URL the CLI follows', async () => {
    const livedoc = ok(await p.cli(['livedocs', 'create', 'Stored'])).stdout.trim();
    const src = path.join(dir, 'notes.txt');
    writeFileSync(src, 'Tidal power notes: the Rance barrage opened in 1966.\n'.repeat(50));
    const resource = ok(await p.cli(['livedocs', 'resources', 'upload', livedoc, src])).stdout.trim();
    expect(resource).toMatch(/^res_/);

    // The API answers the download with the object store's own presigned URL.
    const res = await p.fetch(`/v2/livedocs/${livedoc}/resources/${resource}/download?expires_in=120`, {
      headers: { authorization: `Bearer ${p.boot.api_key}` },
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
    const location = res.headers.get('location')!;
    expect(location.startsWith(`${s3.endpoint}/facet-e2e/one/livedocs/${livedoc}/${resource}/`)).toBe(true);
    expect(new URL(location).searchParams.get('X-Amz-Expires')).toBe('120');
    const direct = await fetch(location);
    expect(direct.status).toBe(200);
    expect(await direct.text()).toBe(readFileSync(src, 'utf8'));
    // The presigned URL names the file, so a saved download keeps its name.
    expect(direct.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''notes.txt");

    const out = path.join(dir, 'downloaded.txt');
    ok(await p.cli(['livedocs', 'resources', 'download', livedoc, resource, '-o', out]));
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(src, 'utf8'));

    // Deleted: gone from the bucket too.
    ok(await p.cli(['livedocs', 'resources', 'delete', livedoc, resource, '--yes']));
    expect((await fetch(location)).status).toBe(404);
  }, 60_000);

  it('an image task: its outputs are in the bucket, the artifacts ZIP is a redirect to a presigned URL of a valid ZIP', async () => {
    const out = tempDir('task-out');
    const r = await p.cli(
      [
        'tasks',
        'create',
        '--kind',
        'illustration',
        '--prompt',
        'A lighthouse over a night ocean',
        '--size',
        '320x180',
        '--count',
        '2',
        '--wait',
        '--out',
        out,
        '--json',
      ],
      { timeout: 90_000 },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const task = JSON.parse(r.stdout);
    expect(task.status).toBe('succeeded');
    const tree = okJson(await p.cli(['tasks', 'files', task.id, '--json']));
    const treeFiles = tree
      .filter((n: { type: string }) => n.type === 'file')
      .map((n: { path: string }) => n.path)
      .sort();
    expect(treeFiles).toEqual([
      'illustration-1.png',
      'illustration-1.svg',
      'illustration-2.png',
      'illustration-2.svg',
      'result.json',
    ]);
    expect(readdirSync(out).sort()).toEqual(treeFiles);

    const zipRes = await p.fetch(`/tasks/${task.id}/artifacts`, {
      headers: { 'x-api-key': p.boot.api_key! },
      redirect: 'manual',
    });
    expect(zipRes.status).toBe(302);
    const zipUrl = zipRes.headers.get('location')!;
    expect(zipUrl.startsWith(`${s3.endpoint}/facet-e2e/one/tasks/${task.id}/artifacts.zip?`)).toBe(true);
    const zip = await fetch(zipUrl);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect((await zipNames(Buffer.from(await zip.arrayBuffer()))).sort()).toEqual(treeFiles);

    // The CLI follows the redirects (ZIP and one file) without being told.
    const zipDir = tempDir('zip');
    ok(await p.cli(['tasks', 'download', task.id, '--zip', '--out', zipDir]));
    expect((await zipNames(readFileSync(path.join(zipDir, `${task.id}.zip`)))).sort()).toEqual(treeFiles);
    ok(await p.cli(['tasks', 'download', task.id, 'illustration-2.png', '--out', zipDir]));
    expect(
      readFileSync(path.join(zipDir, 'illustration-2.png')).equals(readFileSync(path.join(out, 'illustration-2.png'))),
    ).toBe(true);
    // A text preview is read from the bucket by range.
    const content = okJson(await p.cli(['tasks', 'cat', task.id, 'result.json', '--json']));
    expect(JSON.parse(content.preview).prompt).toBe('A lighthouse over a night ocean');
    // Inline resources stay on the platform's origin (its content security policy), read from the bucket.
    const inline = await p.fetch(`/tasks/${task.id}/artifact-files/resource?path=illustration-1.svg`, {
      headers: { 'x-api-key': p.boot.api_key! },
    });
    expect(inline.status).toBe(200);
    expect(inline.headers.get('content-security-policy')).toMatch(/sandbox/);
    expect(await inline.text()).toBe(readFileSync(path.join(out, 'illustration-1.svg'), 'utf8'));
  }, 120_000);

  it('a mindmap is kept in the bucket and drawn again from it', async () => {
    const livedoc = ok(await p.cli(['livedocs', 'create', 'Energy'])).stdout.trim();
    const doc = path.join(dir, 'solar.md');
    writeFileSync(
      doc,
      '# Solar power\n\nSolar panels turn sunlight into electricity. Batteries store it for the night. Inverters feed the grid.\n',
    );
    ok(await p.cli(['livedocs', 'resources', 'add-doc', livedoc, '--title', 'Solar power', '--file', doc]));
    const data = okJson(
      await p.cli(['mindmap', 'solar power', '--livedoc', livedoc, '--out', path.join(dir, 'map.png'), '--json']),
    );
    const list = await s3List(`one/livedocs/${livedoc}/`);
    expect(list.some((k) => k.endsWith('/mindmap.json'))).toBe(true);
    // Its page draws it again from the stored tree.
    const page = await fetch(data.mindmap_url);
    expect(page.status).toBe(200);
  }, 60_000);

  it('a deck: its .pptx download redirects to the bucket, its previews are read from it', async () => {
    const livedoc = ok(await p.cli(['livedocs', 'create', 'Spain'])).stdout.trim();
    const doc = path.join(dir, 'spain.md');
    writeFileSync(
      doc,
      '# Solar power in Spain\n\nSpain installed 8 GW of solar panels in 2023. Solar farms in Andalusia feed the grid.\n\n## Storage\n\nBatteries keep the evening supply steady.\n',
    );
    ok(await p.cli(['livedocs', 'resources', 'add-doc', livedoc, '--title', 'Solar in Spain', '--file', doc]));
    const deckFile = path.join(dir, 'deck.pptx');
    const record = okJson(
      await p.cli(
        [
          'slides',
          'create',
          'Solar power in Spain',
          '--livedoc',
          livedoc,
          '--wait',
          '--interval',
          '2',
          '--out',
          deckFile,
          '--json',
        ],
        { timeout: 240_000 },
      ),
    );
    expect(readFileSync(deckFile).subarray(0, 2).toString()).toBe('PK');
    const deckUrl = new URL(record.ppt_url);
    deckUrl.pathname += '/deck.pptx';
    const res = await fetch(deckUrl, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const direct = await fetch(res.headers.get('location')!);
    expect(direct.status).toBe(200);
    expect(Buffer.from(await direct.arrayBuffer()).equals(readFileSync(deckFile))).toBe(true);
    const viewer = await viewerOnceDrawn(record.ppt_url);
    const preview = /src="([^"]*\/previews\/1[^"]*)"/.exec(viewer)?.[1];
    // Previews need LibreOffice; where it is installed, the first one is read back from the bucket.
    expect(Boolean(preview)).toBe(Boolean(sofficePath()));
    if (preview) {
      const png = await fetch(new URL(preview.replace(/&amp;/g, '&'), record.ppt_url));
      expect(png.status).toBe(200);
      expect(
        Buffer.from(await png.arrayBuffer())
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
    }
  }, 300_000);

  it('a landing page is kept in the bucket and served from it', async () => {
    const doc = path.join(dir, 'guide.md');
    writeFileSync(
      doc,
      '# Home solar guide\n\nA home solar system costs about $15,000 before credits.\n\n## How panels work\n\nPanels turn light into direct current; an inverter makes it household power.\n',
    );
    const out = path.join(dir, 'page.html');
    const run = await p.cli(
      [
        'pages',
        'create',
        'A page about home solar',
        '--file',
        doc,
        '--wait',
        '--out',
        out,
        '--interval',
        '2',
        '--json',
      ],
      { timeout: 120_000 },
    );
    expect(run.exitCode, run.stderr).toBe(0);
    const record = JSON.parse(run.stdout);
    const served = await fetch(record.ppt_url);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe(readFileSync(out, 'utf8'));
    expect(await s3List(`one/tasks/${record.task_id}`)).toEqual([
      `one/tasks/${record.task_id}/output/landing-page.html`,
    ]);
  }, 150_000);

  it('leaves nothing in the local files dir but work in progress', () => {
    expect(localFiles(path.join(p.dataDir, 'files'))).toEqual([]);
  });
});

/** Keys in the test bucket under a prefix, listed through a store on the whole bucket. */
async function s3List(prefix: string): Promise<string[]> {
  const { S3FileStore } = await import('../../src/server/files/s3/s3-file-store.js');
  const { parseS3Config } = await import('../../src/server/files/s3/s3-config.js');
  const store = new S3FileStore(parseS3Config({ objectStore: 's3://facet-e2e' }, s3.env), tempDir('scratch'));
  return (await store.list(prefix.replace(/\/$/, ''))).map((f) => f.key);
}
