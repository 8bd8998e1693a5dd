import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type Platform } from '../helpers/platform.js';

let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
});
afterAll(() => p?.cleanup());

/** Empty or ill-formed input is the caller's: exit 2 with the reason, never the server's 4xx (exit 1). */
const CASES: Array<[string[], RegExp]> = [
  [['keys', 'create', '--name', ''], /--name must not be empty/],
  [['chat', ''], /<query> must not be empty/],
  [['chat', '   '], /<query> must not be empty/],
  [['ask', ''], /<query> must not be empty/],
  [['conversations', 'start', '', '--livedoc', 'ld_x'], /<query> must not be empty/],
  [['livedocs', 'create', ''], /<name> must not be empty/],
  [['livedocs', 'update', 'ld_x', '--name', ''], /--name must not be empty/],
  [['livedocs', 'get', ''], /must not be empty/],
  [['projects', 'create', ''], /<name> must not be empty/],
  [['mindmap', ''], /<query> must not be empty/],
  [['extract', ''], /<url> must not be empty/],
  [['extract', 'example.com/page'], /not an http or https URL: example.com\/page/],
  [['extract', 'ftp://example.com/x'], /not an http or https URL/],
  [['social', 'search', ''], /<query> must not be empty/],
  [['serve', 'users', 'create', '', '--data-dir', '/nonexistent/facet-test'], /<name> must not be empty/],
];

describe('usage errors exit 2', () => {
  it.each(CASES)('facet %j', async (...row) => {
    const [args, message] = row as unknown as [string[], RegExp];
    const before = p.responses().length;
    const r = await p.cli(args);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
    // Refused before any request.
    expect(p.responses().length).toBe(before);
  });

  it('offline verbs: a malformed credit change or user name exits 2, an unknown user 4', async () => {
    const bogus = await p.cli(['serve', 'users', 'credits', 'admin', 'bogus', '--data-dir', p.dataDir]);
    expect(bogus.exitCode).toBe(2);
    expect(bogus.stderr).toMatch(/"bogus" is not a credit change: write \+N, -N or =N/);
    const badName = await p.cli(['serve', 'users', 'create', 'no spaces', '--data-dir', p.dataDir]);
    expect(badName.exitCode).toBe(2);
    expect(badName.stderr).toMatch(/a user name is 1-64/);
    const nobody = await p.cli(['serve', 'users', 'credits', 'nobody', '+1', '--data-dir', p.dataDir]);
    expect(nobody.exitCode).toBe(4);
  });

  it('free-text options may still be empty (an empty description is a value)', async () => {
    const r = await p.cli(['livedocs', 'create', 'Described', '--description', '', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
  });
});
