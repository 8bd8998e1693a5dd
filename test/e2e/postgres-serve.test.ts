import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPlatform, tempDir, type Platform } from '../helpers/platform.js';
import { createTestDatabase, describePostgres } from '../helpers/postgres.js';

const json = (r: { exitCode: number; stdout: string; stderr: string }) => {
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

/**
 * The whole server on PostgreSQL: `facet serve --database-url` runs the CLI's everyday flows, keeps
 * its records across a restart, and the offline admin verbs reach the same database.
 */
describePostgres('facet serve --database-url (PostgreSQL)', () => {
  let p: Platform;
  let url: string;
  beforeAll(async () => {
    url = await createTestDatabase();
    p = await startPlatform({ databaseUrl: url });
  });
  afterAll(() => p?.cleanup());

  it('says where the records are, without the password', () => {
    expect(p.serverOutput()).toMatch(/records: PostgreSQL postgres:\/\/.*127\.0\.0\.1:\d+\/facet_t_/);
  });

  it('creates, lists, freezes, unfreezes and deletes keys', async () => {
    const key = json(await p.cli(['keys', 'create', '--name', 'ci', '--json']));
    expect(json(await p.cli(['keys', 'list', '--json'])).map((k: { id: string }) => k.id)).toContain(key.id);
    json(await p.cli(['admin', 'keys', 'freeze', key.id, '--json']));
    const refused = await p.cli(['whoami'], { env: { FACET_API_KEY: key.key } });
    expect(refused.exitCode).toBe(3);
    expect(refused.stderr).toMatch(/KEY_FROZEN/);
    json(await p.cli(['admin', 'keys', 'unfreeze', key.id, '--json']));
    expect((await p.cli(['whoami'], { env: { FACET_API_KEY: key.key } })).exitCode).toBe(0);
    expect((await p.cli(['keys', 'delete', key.id, '--yes'])).exitCode).toBe(0);
    expect((await p.cli(['whoami'], { env: { FACET_API_KEY: key.key } })).exitCode).toBe(3);
  });

  it('retrieves from and answers over a LiveDoc (full-text search on PostgreSQL)', async () => {
    const ld = json(await p.cli(['livedocs', 'create', 'Harbour', '--json'])).short_id;
    const dir = tempDir('inputs');
    writeFileSync(
      path.join(dir, 'notes.md'),
      '# Harbour\n\nThe harbour light is green at night.\n\n## Ferries\n\nThe ferry to the island leaves every forty minutes.\n',
    );
    const doc = json(await p.cli(['livedocs', 'resources', 'upload-doc', ld, path.join(dir, 'notes.md'), '--json']));
    const hits = json(
      await p.cli(['livedocs', 'resources', 'retrieve', ld, 'how often does the ferry leave', '--json']),
    );
    expect(hits[0]).toMatchObject({ id: doc.id });
    expect(hits[0].content).toMatch(/every forty minutes/);
    const ask = await p.cli(['ask', 'What colour is the harbour light?', '--livedoc', ld]);
    expect(ask.exitCode, ask.stderr).toBe(0);
    expect(ask.stdout).toMatch(/green at night/);
    const usage = json(await p.cli(['admin', 'usage', '--json']));
    expect(usage.keys[0].models.find((m: { model: string }) => m.model === 'facet-grounded').calls).toBeGreaterThan(0);
  });

  it('runs an illustration task through the job queue to the end with --wait', async () => {
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
  });

  it('keeps everything across a restart, and the offline admin verbs reach the same database', async () => {
    const before = json(await p.cli(['livedocs', 'list', '--json'])).total;
    p = await p.restart();
    expect(json(await p.cli(['livedocs', 'list', '--json'])).total).toBe(before);
    const created = json(await p.cli(['serve', 'users', 'create', 'dora', '--database-url', url, '--json']));
    const users = json(await p.cli(['serve', 'users', 'list', '--database-url', url, '--json']));
    expect(users.map((u: { id: string }) => u.id)).toContain(created.id);
  });
});
