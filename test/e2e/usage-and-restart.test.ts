import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, okJson, startPlatform, type Platform } from '../helpers/platform.js';

let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
});
afterAll(() => p?.cleanup());

const record = (args: string[]) => p.cli(['serve', 'usage', 'record', '--data-dir', p.dataDir, ...args]).then(ok);

describe('usage report and persistence', () => {
  it('reports calls, tokens and cost per key and model, with totals; filters and limit work', async () => {
    const k1 = okJson(await p.cli(['keys', 'create', '--name', 'one', '--json']));
    const k2 = okJson(await p.cli(['keys', 'create', '--name', 'two', '--json']));
    for (const args of [
      ['--key', k1.id, '--model', 'alpha', '--input', '1000', '--output', '200', '--cost', '0.0012'],
      [
        '--key',
        k1.id,
        '--model',
        'alpha',
        '--input',
        '500',
        '--output',
        '100',
        '--cache-read',
        '50',
        '--cost',
        '0.0006',
        '--task',
        'task_a',
      ],
      ['--key', k1.id, '--model', 'beta', '--input', '10', '--output', '10', '--cost', '0.0001'],
      ['--key', k2.id, '--model', 'alpha', '--input', '1', '--output', '1', '--cost', '0', '--task', 'task_b'],
    ]) {
      const r = await record(args);
      expect(r.exitCode, r.stderr).toBe(0);
    }

    const all = await p.cli(['admin', 'usage', '--json']);
    expect(all.exitCode, all.stderr).toBe(0);
    const report = JSON.parse(all.stdout);
    expect(report.totals).toMatchObject({ calls: 4, input_tokens: 1511, output_tokens: 311, cache_read_tokens: 50 });
    expect(report.totals.cost_usd).toBeCloseTo(0.0019, 12);
    expect(report.keys.map((k: { api_key_id: string }) => k.api_key_id)).toEqual([k1.id, k2.id]);
    const one = report.keys[0];
    expect(one).toMatchObject({ key_name: 'one', calls: 3, input_tokens: 1510, output_tokens: 310 });
    expect(one.models.map((m: { model: string; calls: number }) => [m.model, m.calls])).toEqual([
      ['alpha', 2],
      ['beta', 1],
    ]);

    const byTask = okJson(await p.cli(['admin', 'usage', '--task', 'task_a', '--json']));
    expect(byTask.totals.calls).toBe(1);
    expect(byTask.keys[0].api_key_id).toBe(k1.id);

    const byKey = okJson(await p.cli(['admin', 'usage', '--key', k2.id, '--json']));
    expect(byKey.totals.calls).toBe(1);

    const limited = okJson(await p.cli(['admin', 'usage', '--limit', '1', '--json']));
    expect(limited.keys).toHaveLength(1);
    expect(limited.totals.calls).toBe(4);

    const table = ok(await p.cli(['admin', 'usage']));
    expect(table.stdout).toMatch(/TOTAL/);
    expect(table.stdout).toMatch(/\$0\.001900/);

    const badLimit = await p.cli(['admin', 'usage', '--limit', '501']);
    expect(badLimit.exitCode).toBe(2);
  });

  it('keeps keys, their state and usage across a restart on the same data dir', async () => {
    const k = okJson(await p.cli(['keys', 'create', '--name', 'survivor', '--json']));
    ok(await p.cli(['admin', 'keys', 'freeze', k.id]));
    await record(['--key', k.id, '--model', 'gamma', '--input', '7', '--cost', '0.5']);
    const before = okJson(await p.cli(['admin', 'usage', '--json']));

    p = await p.restart();
    const keys = okJson(await p.cli(['admin', 'keys', 'list', '--json']));
    expect(keys.find((x: { id: string }) => x.id === k.id)).toMatchObject({ name: 'survivor', status: 'frozen' });
    const after = okJson(await p.cli(['admin', 'usage', '--json']));
    expect(after.totals).toEqual(before.totals);
    // the bootstrap key and admin key still work, and the local profile follows the new port
    const who = okJson(await p.cli(['whoami', '--json']));
    expect(who.base_url).toBe(p.url);
    expect(who.user.role).toBe('admin');
    const frozen = await p.fetch('/v2/x', { headers: { Authorization: `Bearer ${k.key}` } });
    expect(frozen.status).toBe(403);
  });
});
