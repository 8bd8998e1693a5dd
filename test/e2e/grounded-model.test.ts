import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startPlatform, type Platform } from '../helpers/platform.js';

let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
});
afterAll(() => p?.cleanup());

describe('the local grounded model on /api/v1', () => {
  it("answers from the caller's LiveDocs, citing and naming the source, through the same gateway as chat", async () => {
    const before = await p.cli(['llm', 'facet-grounded', 'When was the Varden lighthouse built?']);
    expect(before.exitCode, before.stderr).toBe(0);
    expect(before.stdout).toMatch(/found nothing/);

    const ld = ok(await p.cli(['livedocs', 'create', 'Coast'])).stdout.trim();
    expect(ld).not.toBe('');
    const doc = await p.cli([
      'livedocs',
      'resources',
      'add-doc',
      ld,
      '--title',
      'Varden lighthouse',
      '--content',
      'The Varden lighthouse was built in 1871 from local granite. Its lamp was electrified in 1932.',
    ]);
    expect(doc.exitCode, doc.stderr).toBe(0);

    const r = await p.cli(['llm', 'facet-grounded', 'When was the Varden lighthouse built?', '--surface', 'messages']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/The Varden lighthouse was built in 1871 from local granite\. \[1\]/);
    expect(r.stdout).toMatch(/Sources:\n\[1\] Varden lighthouse/);

    // another user's question does not see this LiveDoc
    ok(await p.cli(['serve', 'users', 'create', 'eve', '--data-dir', p.dataDir]));
    const token = ok(await p.cli(['serve', 'token', 'eve', '--data-dir', p.dataDir])).stdout.trim();
    const key = ok(await p.cli(['keys', 'create'], { env: { FACET_ACCESS_TOKEN: token } })).stdout.trim();
    const other = await p.cli(['llm', 'facet-grounded', 'When was the Varden lighthouse built?'], {
      env: { FACET_API_KEY: key },
    });
    expect(other.exitCode, other.stderr).toBe(0);
    expect(other.stdout).toMatch(/found nothing/);

    // chat answers with the same writer and cites the same resource
    const chat = ok(await p.cli(['chat', 'When was the Varden lighthouse built?', '--json']));
    const data = JSON.parse(chat.stdout);
    expect(data.answer).toMatch(/built in 1871.*\[1\]/);
    expect(data.resources[0].title).toBe('Varden lighthouse');
  });
});
