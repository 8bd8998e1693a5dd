import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, okJson, startPlatform, type Platform } from '../helpers/platform.js';

let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
});
afterAll(() => p?.cleanup());

describe('facet ask reuses one LiveDoc', () => {
  it("the first ask makes the profile's default_livedoc; later asks answer from it instead of making another", async () => {
    const first = ok(await p.cli(['ask', 'What is in here?']));
    const made = /later questions use LiveDoc (ld_\w+)/.exec(first.stderr)?.[1];
    expect(made, first.stderr).toBeTruthy();
    expect(ok(await p.cli(['config', 'get', 'default_livedoc'])).stdout.trim()).toBe(made);

    ok(await p.cli(['ask', 'And now?']));
    const docs = okJson(await p.cli(['livedocs', 'list', '--json']));
    expect((docs.items ?? docs).length).toBe(1);
    const threads = okJson(await p.cli(['conversations', 'list', '--livedoc', made!, '--json']));
    expect(threads.total).toBe(2);
  });

  it('--livedoc wins over the default and leaves it as it was', async () => {
    const before = ok(await p.cli(['config', 'get', 'default_livedoc'])).stdout.trim();
    const other = okJson(await p.cli(['api', 'POST', '/v2/livedocs', '-f', 'name=other'])).data.short_id;
    const r = ok(await p.cli(['ask', 'Anything?', '--livedoc', other]));
    expect(r.stderr).toContain(`livedoc ${other}`);
    expect(ok(await p.cli(['config', 'get', 'default_livedoc'])).stdout.trim()).toBe(before);
  });
});
