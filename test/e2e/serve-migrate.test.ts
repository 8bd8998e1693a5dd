import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runCli, startPlatform, tempDir, type Platform } from '../helpers/platform.js';
import { createTestDatabase, describePostgres, dropTestDatabases } from '../helpers/postgres.js';
import { startObjectStore } from '../helpers/s3rver.js';

const json = (r: { exitCode: number; stdout: string; stderr: string }) => {
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};
const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/**
 * Issue 15: `facet serve migrate` moves a SQLite data dir with keys, LiveDocs, tasks and
 * conversations into PostgreSQL and a shared files directory; afterwards the same CLI commands give
 * the same answers against PostgreSQL, and the source is untouched.
 */
describePostgres('facet serve migrate', () => {
  const platforms: Platform[] = [];
  afterAll(async () => {
    for (const p of platforms) p.cleanup();
    await dropTestDatabases();
  });

  it('copies records and files, checks counts, leaves the source as it was, and the CLI answers the same on PostgreSQL', async () => {
    // A data dir on SQLite (this test always uses SQLite for the source, even under FACET_E2E_POSTGRES).
    const sourceDir = tempDir('source');
    const a = await startPlatform({ dataDir: sourceDir });
    platforms.push(a);
    const key = json(await a.cli(['keys', 'create', '--name', 'migrated', '--json']));
    const ld = json(await a.cli(['livedocs', 'create', 'Harbour', '--json'])).short_id;
    const inputs = tempDir('inputs');
    writeFileSync(
      path.join(inputs, 'notes.md'),
      '# Harbour\n\nThe harbour light is green at night.\n\n## Ferries\n\nThe ferry to the island leaves every forty minutes.\n',
    );
    const upload = json(await a.cli(['livedocs', 'resources', 'upload', ld, path.join(inputs, 'notes.md'), '--json']));
    const task = json(
      await a.cli([
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
    const started = json(
      await a.cli(['conversations', 'start', 'How often does the ferry leave?', '--livedoc', ld, '--json']),
    );
    const thread = started.thread_short_id ?? started.thread?.thread_short_id;
    expect(thread).toBeTruthy();

    const queries: string[][] = [
      ['keys', 'list', '--json'],
      ['livedocs', 'list', '--json'],
      ['livedocs', 'resources', 'list', ld, '--json'],
      ['livedocs', 'resources', 'retrieve', ld, 'how often does the ferry leave', '--json'],
      ['tasks', 'get', task.id, '--json'],
      ['conversations', 'get', thread, '--json'],
    ];
    // Search scores are each database's own (bm25 / ts_rank); what is found, and in which order, is the same.
    const comparable = (q: string[], v: unknown) =>
      q.includes('retrieve') ? (v as Array<Record<string, unknown>>).map(({ score: _s, ...rest }) => rest) : v;
    const before = [];
    for (const q of queries) before.push(comparable(q, json(await a.cli(q))));
    const url = await createTestDatabase();
    const files = tempDir('shared-files');

    // A data dir a running server holds is refused: the copy would be stale as soon as it ended.
    const busy = await runCli(a.configDir, [
      'serve',
      'migrate',
      '--from',
      sourceDir,
      '--to',
      url,
      '--copy-files-to',
      files,
    ]);
    expect(busy.exitCode, busy.stderr).toBe(1);
    expect(busy.stderr).toMatch(/migrate refused: another facet serve \(pid \d+\) is using/);
    expect(busy.stderr).toMatch(/stop that server/);
    expect(readdirSync(files)).toEqual([]);
    await a.stop();

    const sourceDb = path.join(sourceDir, 'facet.db');
    const sourceHash = digest(sourceDb);
    // serve.pid only names a lock's holder: a stopped server's may still be there, or be gone, by now.
    const dataFiles = () =>
      readdirSync(sourceDir)
        .filter((f) => f !== 'serve.pid')
        .sort();
    const sourceFiles = dataFiles();
    const migrated = json(
      await runCli(a.configDir, [
        'serve',
        'migrate',
        '--from',
        sourceDir,
        '--to',
        url,
        '--copy-files-to',
        files,
        '--json',
      ]),
    );
    expect(migrated.rows).toBeGreaterThan(0);
    expect(migrated.tables.find((t: { table: string }) => t.table === 'api_keys').rows).toBeGreaterThanOrEqual(2);
    expect(migrated.files.files).toBeGreaterThan(0);
    // The source is untouched: the same bytes, no file added (no -wal or -shm beside it), and it still starts.
    expect(digest(sourceDb)).toBe(sourceHash);
    expect(dataFiles()).toEqual(sourceFiles);
    expect(existsSync(path.join(files, 'livedocs', ld, upload.id))).toBe(true);

    // Migrating into a database that already holds records is refused.
    const again = await runCli(a.configDir, ['serve', 'migrate', '--from', sourceDir, '--to', url]);
    expect(again.exitCode).not.toBe(0);
    expect(again.stderr).toMatch(/already holds records/);

    // A server on PostgreSQL with the shared files, used by the same CLI profile.
    const b = await startPlatform({ databaseUrl: url, configDir: a.configDir, args: ['--files-dir', files] });
    platforms.push(b);
    const env = { FACET_BASE_URL: b.url, FACET_API_KEY: a.boot.api_key! };
    for (const [i, q] of queries.entries()) {
      const after = comparable(q, json(await runCli(a.configDir, q, { env })));
      expect(after, q.join(' ')).toEqual(before[i]);
    }
    // A key made on SQLite authenticates against PostgreSQL.
    const who = await runCli(a.configDir, ['whoami'], { env: { ...env, FACET_API_KEY: key.key } });
    expect(who.exitCode, who.stderr).toBe(0);
    // The uploaded file downloads from the shared files directory.
    const dl = await runCli(
      a.configDir,
      ['livedocs', 'resources', 'download', ld, upload.id, '-o', path.join(inputs, 'back.md')],
      { env },
    );
    expect(dl.exitCode, dl.stderr).toBe(0);
    expect(readFileSync(path.join(inputs, 'back.md'), 'utf8')).toContain('every forty minutes');
  }, 180_000);

  it('--object-store: copies the files into the object store, checks them, and instances on it serve them', async () => {
    const s3 = await startObjectStore(['facet-migrate']);
    try {
      const sourceDir = tempDir('source-s3');
      const a = await startPlatform({ dataDir: sourceDir });
      platforms.push(a);
      const ld = json(await a.cli(['livedocs', 'create', 'Harbour', '--json'])).short_id;
      const inputs = tempDir('inputs-s3');
      writeFileSync(
        path.join(inputs, 'notes.md'),
        '# Harbour\n\nThe ferry to the island leaves every forty minutes.\n',
      );
      const upload = json(
        await a.cli(['livedocs', 'resources', 'upload', ld, path.join(inputs, 'notes.md'), '--json']),
      );
      const task = json(
        await a.cli([
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
      const treeBefore = json(await a.cli(['tasks', 'files', task.id, '--json'])).map(
        (n: { path: string; size: number }) => [n.path, n.size],
      );
      await a.stop();

      const url = await createTestDatabase();
      const migrated = json(
        await runCli(
          a.configDir,
          [
            'serve',
            'migrate',
            '--from',
            sourceDir,
            '--to',
            url,
            '--object-store',
            's3://facet-migrate/moved',
            '--json',
          ],
          { env: s3.env },
        ),
      );
      expect(migrated.files.files).toBeGreaterThanOrEqual(4);
      // --copy-files-to and --object-store together are refused.
      const both = await runCli(
        a.configDir,
        [
          'serve',
          'migrate',
          '--from',
          sourceDir,
          '--to',
          url,
          '--object-store',
          's3://facet-migrate/moved',
          '--copy-files-to',
          inputs,
        ],
        { env: s3.env },
      );
      expect(both.exitCode).not.toBe(0);
      expect(both.stderr).toMatch(/not both/);

      const b = await startPlatform({
        databaseUrl: url,
        configDir: a.configDir,
        args: ['--object-store', 's3://facet-migrate/moved'],
        env: s3.env,
      });
      platforms.push(b);
      const env = { FACET_BASE_URL: b.url, FACET_API_KEY: a.boot.api_key! };
      const dl = await runCli(
        a.configDir,
        ['livedocs', 'resources', 'download', ld, upload.id, '-o', path.join(inputs, 'back.md')],
        { env },
      );
      expect(dl.exitCode, dl.stderr).toBe(0);
      expect(readFileSync(path.join(inputs, 'back.md'), 'utf8')).toContain('every forty minutes');
      const treeAfter = json(await runCli(a.configDir, ['tasks', 'files', task.id, '--json'], { env })).map(
        (n: { path: string; size: number }) => [n.path, n.size],
      );
      expect(treeAfter).toEqual(treeBefore);
      // A task from before has no stored ZIP: the ZIP is made from the object store as it is sent.
      const zipDir = tempDir('zip-s3');
      const z = await runCli(a.configDir, ['tasks', 'download', task.id, '--zip', '--out', zipDir], { env });
      expect(z.exitCode, z.stderr).toBe(0);
      expect(
        readFileSync(path.join(zipDir, `${task.id}.zip`))
          .subarray(0, 2)
          .toString(),
      ).toBe('PK');
    } finally {
      await s3.stop();
    }
  }, 180_000);
});
