import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runCli, startPlatform, tempDir, type Platform } from '../helpers/platform.js';
import { zipNames } from '../helpers/zip.js';
import { createTestDatabase, describePostgres, dropTestDatabases } from '../helpers/postgres.js';
import { S3RVER_CREDENTIALS, startObjectStore, type TestObjectStore } from '../helpers/s3rver.js';
import { startServer, type RunningServer } from '../../src/server/server.js';

const json = (r: { exitCode: number; stdout: string; stderr: string }) => {
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

/**
 * Issue 15, files: three `facet serve` processes on one PostgreSQL and one object store (s3rver on
 * 127.0.0.1), each with its own private data dir. What one stores, the others serve; downloads are
 * redirects to presigned URLs that work; an instance whose files would not be shared is refused.
 */
describePostgres('files across three instances on one PostgreSQL and one object store', () => {
  const platforms: Platform[] = [];
  const servers: RunningServer[] = [];
  let s3: TestObjectStore;
  afterAll(async () => {
    for (const s of servers) await s.close();
    for (const p of platforms) await p.cleanup();
    await s3?.stop();
    await dropTestDatabases();
  });

  it('a file uploaded through A downloads through B with the CLI; the artifacts ZIP of a task made through C redirects (through A) to a presigned URL of a valid ZIP', async () => {
    s3 = await startObjectStore(['facet-scale']);
    const url = await createTestDatabase();
    for (let i = 0; i < 3; i++)
      platforms.push(
        await startPlatform({ databaseUrl: url, args: ['--object-store', 's3://facet-scale/deploy'], env: s3.env }),
      );
    const [a, b, c] = platforms;
    const key = a.boot.api_key!;
    const onB = { FACET_BASE_URL: b.url, FACET_API_KEY: key };
    const onC = { FACET_BASE_URL: c.url, FACET_API_KEY: key };

    const inputs = tempDir('inputs');
    const src = path.join(inputs, 'harbour.md');
    writeFileSync(src, '# Harbour\n\nThe ferry to the island leaves every forty minutes.\n'.repeat(200));
    const ld = json(await a.cli(['livedocs', 'create', 'Harbour', '--json'])).short_id;
    const upload = json(await a.cli(['livedocs', 'resources', 'upload', ld, src, '--json']));
    const back = path.join(inputs, 'back.md');
    json(
      await runCli(b.configDir, ['livedocs', 'resources', 'download', ld, upload.id, '-o', back, '--json'], {
        env: onB,
      }),
    );
    expect(readFileSync(back, 'utf8')).toBe(readFileSync(src, 'utf8'));

    const task = json(
      await runCli(
        c.configDir,
        [
          'tasks',
          'create',
          '--kind',
          'illustration',
          '--prompt',
          'A green harbour light',
          '--size',
          '64x64',
          '--count',
          '2',
          '--wait',
          '--json',
        ],
        { env: onC, timeout: 90_000 },
      ),
    );
    expect(task.status).toBe('succeeded');
    const res = await a.fetch(`/tasks/${task.id}/artifacts`, { headers: { 'x-api-key': key }, redirect: 'manual' });
    expect(res.status).toBe(302);
    const presigned = res.headers.get('location')!;
    expect(presigned.startsWith(`${s3.endpoint}/facet-scale/deploy/tasks/${task.id}/artifacts.zip?`)).toBe(true);
    expect(presigned).toContain('X-Amz-Signature=');
    const zip = await fetch(presigned);
    expect(zip.status).toBe(200);
    const names = (await zipNames(Buffer.from(await zip.arrayBuffer()))).sort();
    expect(names).toEqual([
      'illustration-1.png',
      'illustration-1.svg',
      'illustration-2.png',
      'illustration-2.svg',
      'result.json',
    ]);
    // The tree listed through B is the same files.
    const tree = json(await runCli(b.configDir, ['tasks', 'files', task.id, '--json'], { env: onB }));
    expect(tree.map((n: { path: string }) => n.path).sort()).toEqual(names);
  }, 180_000);

  it('refuses an instance whose files would not be shared: a private directory among object-store instances, another prefix, and the other way round', async () => {
    s3 ??= await startObjectStore(['facet-scale']);
    const objectStore = (prefix: string) => ({
      objectStore: `s3://facet-scale/${prefix}`,
      endpoint: s3.endpoint,
      ...S3RVER_CREDENTIALS,
    });
    const start = (extra: Parameters<typeof startServer>[0] = {}) =>
      startServer({ databaseUrl: url, memory: true, port: 0, logLevel: 'silent', ...extra });
    const url = await createTestDatabase();
    servers.push(await start({ objectStore: objectStore('shared') }));
    // Another instance on the same bucket and prefix is welcome.
    servers.push(await start({ objectStore: objectStore('shared/') }));

    const privateDir = await start().catch((e: Error) => e);
    expect(privateDir).toBeInstanceOf(Error);
    expect((privateDir as Error).message).toMatch(
      /2 other facet serve instance\(s\) on this database keep their files in an object store, but this one would keep them in its own directory .*Start it with the same --object-store/,
    );
    const otherPrefix = await start({ objectStore: objectStore('elsewhere') }).catch((e: Error) => e);
    expect((otherPrefix as Error).message).toMatch(
      /use a different object store \(bucket or prefix\) than s3:\/\/facet-scale\/elsewhere/,
    );

    const url2 = await createTestDatabase();
    servers.push(await startServer({ databaseUrl: url2, memory: true, port: 0, logLevel: 'silent' }));
    const joining = await startServer({
      databaseUrl: url2,
      memory: true,
      port: 0,
      logLevel: 'silent',
      objectStore: objectStore('shared'),
    }).catch((e: Error) => e);
    expect((joining as Error).message).toMatch(
      /keep their files in a local directory, but this one in the object store s3:\/\/facet-scale\/shared/,
    );
  }, 60_000);
});
