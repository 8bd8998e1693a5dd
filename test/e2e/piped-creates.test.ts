import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { okJson, startPlatform, tempDir, type CliResult, type Platform } from '../helpers/platform.js';
import { servePages, type PageServer } from '../helpers/pages.js';

/**
 * One piped-output rule for every create verb: piped (as `ID=$(facet …)` reads it), a create
 * prints the new id alone, on one line, and nothing else on stdout. Keys print the key itself,
 * the one thing a script needs of them (it is shown only once).
 */

let p: Platform;
let pages: PageServer;
let project: string;
let ld: string;
let dir: string;

beforeAll(async () => {
  pages = await servePages({
    '/about': {
      type: 'text/html; charset=utf-8',
      body: '<html><head><title>About</title></head><body><p>Harbour lights and lanterns.</p></body></html>',
    },
  });
  p = await startPlatform();
  project = okJson(await p.cli(['projects', 'create', 'Piped', '--json'])).id;
  ld = okJson(await p.cli(['livedocs', 'create', 'Piped', '--json'])).short_id;
  dir = tempDir('piped');
  writeFileSync(path.join(dir, 'notes.md'), '# Notes\n\nHarbour lights.\n');
});
afterAll(async () => {
  p?.cleanup();
  await pages?.close();
});

/** The whole of stdout: exactly one line, the id. */
function oneId(r: CliResult, pattern: RegExp): string {
  expect(r.exitCode, `exit ${r.exitCode}\nstderr: ${r.stderr}`).toBe(0);
  expect(r.stdout, `stdout: ${JSON.stringify(r.stdout)}`).toMatch(new RegExp(`^${pattern.source}\\n$`));
  return r.stdout.trim();
}

describe('piped, every create verb prints the new id alone', () => {
  const verbs: Array<[string, () => string[], RegExp]> = [
    ['projects create', () => ['projects', 'create', 'One'], /prj_[0-9a-z]+/],
    ['projects add-site', () => ['projects', 'add-site', project, `${pages.url}/about`], /site_[0-9a-z]+/],
    ['projects upload', () => ['projects', 'upload', project, path.join(dir, 'notes.md')], /file_[0-9a-z]+/],
    [
      'tasks create',
      () => [
        'tasks',
        'create',
        '--kind',
        'illustration',
        '--prompt',
        'a lantern',
        '--size',
        '100x100',
        '--project',
        project,
      ],
      /task_[0-9a-z]+/,
    ],
    [
      'tasks create --wait',
      () => [
        'tasks',
        'create',
        '--kind',
        'illustration',
        '--prompt',
        'a lantern',
        '--size',
        '100x100',
        '--project',
        project,
        '--wait',
        '--interval',
        '0.2',
      ],
      /task_[0-9a-z]+/,
    ],
    ['livedocs create', () => ['livedocs', 'create', 'One'], /ld_[0-9a-z]+/],
    [
      'livedocs resources add-doc',
      () => ['livedocs', 'resources', 'add-doc', ld, '--title', 'Notes', '--content', '# Notes'],
      /res_[0-9a-z]+/,
    ],
    [
      'livedocs resources upload',
      () => ['livedocs', 'resources', 'upload', ld, path.join(dir, 'notes.md')],
      /res_[0-9a-z]+/,
    ],
    [
      'livedocs resources upload-doc',
      () => ['livedocs', 'resources', 'upload-doc', ld, path.join(dir, 'notes.md')],
      /res_[0-9a-z]+/,
    ],
    [
      'livedocs resources add-url',
      () => ['livedocs', 'resources', 'add-url', ld, `${pages.url}/about`],
      /res_[0-9a-z]+/,
    ],
    ['slides create', () => ['slides', 'create', 'Harbour lights', '--livedoc', ld], /task_[0-9a-z]+/],
    [
      'slides create --wait',
      () => ['slides', 'create', 'Harbour lights', '--livedoc', ld, '--wait', '--interval', '2'],
      /task_[0-9a-z]+/,
    ],
    [
      'slides themes create',
      () => [
        'slides',
        'themes',
        'create',
        'Piped',
        '--background',
        '#FFFFFF',
        '--text',
        '#111111',
        '--accent',
        '#2B6CB0',
      ],
      /theme_[0-9a-z]+/,
    ],
    ['pages create', () => ['pages', 'create', 'Harbour lights', '--livedoc', ld], /task_[0-9a-z]+/],
    ['mindmap', () => ['mindmap', 'Harbour lights', '--livedoc', ld], /res_[0-9a-z]+/],
    ['keys create', () => ['keys', 'create', '--name', 'piped'], /fk_[0-9a-z]+/],
    [
      'admin keys create',
      () => ['admin', 'keys', 'create', '--user', p.boot.user_id, '--name', 'piped'],
      /fk_[0-9a-z]+/,
    ],
    ['serve users create', () => ['serve', 'users', 'create', 'piper', '--data-dir', p.dataDir], /usr_[0-9a-z]+/],
  ];
  for (const [name, args, pattern] of verbs) {
    it(name, async () => {
      oneId(await p.cli(args()), pattern);
    });
  }

  it('--json is unchanged: the response data', async () => {
    const doc = okJson(
      await p.cli(['livedocs', 'resources', 'add-doc', ld, '--title', 'Json', '--content', '# Json', '--json']),
    );
    expect(doc).toMatchObject({ title: 'Json', resource_type: 'ai_doc' });
    const added = okJson(await p.cli(['livedocs', 'resources', 'add-url', ld, `${pages.url}/about`, '--json']));
    expect(added).toEqual([
      expect.objectContaining({ url: `${pages.url}/about`, resource_id: expect.stringMatching(/^res_/) }),
    ]);
  });
});
