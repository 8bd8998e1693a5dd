import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { artifactContent, artifactTree, resolveArtifact } from '../../../src/server/services/artifacts.service.js';
import { RequestValidationError } from '../../../src/server/errors.js';
import { LocalFileStore } from '../../../src/server/files/local-file-store.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'facet-art-'));
const out = path.join(root, 'output');
mkdirSync(path.join(out, 'a'), { recursive: true });
writeFileSync(path.join(root, 'secret.txt'), 'secret');
writeFileSync(path.join(out, 'a', 'b.txt'), 'hello');
writeFileSync(path.join(out, 'mixed.md'), 'a' + '€'.repeat(30_000));
symlinkSync(path.join(root, 'secret.txt'), path.join(out, 'link.txt'));
// A folder link to a place inside the same files dir: never followed either.
symlinkSync(root, path.join(out, 'up'));
const files = new LocalFileStore(root);
const prefix = 'output';
afterAll(() => rmSync(root, { recursive: true, force: true }));

const urls = { download: 'd', resource: 'r' };

describe('artifact paths', () => {
  it('resolves a plain relative path, ignoring empty and "." segments', async () => {
    expect((await resolveArtifact(files, prefix, 'a/b.txt')).rel).toBe('a/b.txt');
    expect((await resolveArtifact(files, prefix, './a//b.txt')).rel).toBe('a/b.txt');
  });

  it.each([
    '../secret.txt',
    'a/../../secret.txt',
    '/etc/passwd',
    'C:/x',
    'a\\b.txt',
    'a%2Fb.txt',
    '%2e%2e/secret.txt',
    'a\0b',
    '.',
    '',
  ])('refuses %j as invalid (422)', async (p) => {
    await expect(resolveArtifact(files, prefix, p)).rejects.toBeInstanceOf(RequestValidationError);
  });

  it.each(['link.txt', 'up/secret.txt', 'up/output/a/b.txt', 'a', 'missing.txt'])(
    'answers %j as not found (404)',
    async (p) => {
      await expect(resolveArtifact(files, prefix, p)).rejects.toMatchObject({ status: 404 });
    },
  );

  it('lists folders and files depth first and leaves symlinks out', async () => {
    const tree = await artifactTree(files, prefix);
    expect(tree.map((n) => `${n.type}:${n.path}`)).toEqual(['directory:a', 'file:a/b.txt', 'file:mixed.md']);
  });

  it('cuts a preview on a whole 3-byte character', async () => {
    const c = await artifactContent(files, prefix, 'mixed.md', urls);
    expect(c.truncated).toBe(true);
    // 1 + 3k bytes fit in 65536 for k = 21845: the preview ends on a whole "€".
    expect(c.preview).toBe('a' + '€'.repeat(21_845));
  });
});
