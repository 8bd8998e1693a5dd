import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandTree } from '../helpers/command-tree.js';
import { ok, okJson, startPlatform, type Platform } from '../helpers/platform.js';
import { runOnPty } from '../helpers/pty.js';

/** Every `list` command of the CLI, read from the command tree: a new list command is covered. */
const listCommands = async () => (await commandTree()).filter((c) => c.command.name() === 'list').map((c) => c.words);

/** `config list` prints the settings of one profile: a record, not a list of records. */
const NOT_RECORDS = new Set(['config list']);

let p: Platform;
let extra: Record<string, string[]>;
beforeAll(async () => {
  p = await startPlatform();
  const ld = okJson(await p.cli(['livedocs', 'create', 'Lists', '--json'])).short_id as string;
  ok(
    await p.cli([
      'livedocs',
      'resources',
      'add-doc',
      ld,
      '--title',
      'Harbour',
      '--content',
      'The harbour light is green.',
    ]),
  );
  ok(await p.cli(['projects', 'create', 'Listed']));
  ok(await p.cli(['ask', 'What colour is the harbour light?', '--livedoc', ld]));
  ok(
    await p.cli(['tasks', 'create', '--kind', 'illustration', '--prompt', 'a lighthouse', '--size', '64x64', '--wait']),
  );
  // Arguments a list command needs to have records to show.
  extra = { 'livedocs resources list': [ld], 'serve users list': ['--data-dir', p.dataDir] };
}, 120_000);
afterAll(() => p?.cleanup());

describe('--json FIELD on every list command', async () => {
  const commands = (await listCommands()).filter((c) => !NOT_RECORDS.has(c));
  it('the tree has the paged and plain lists', () => {
    expect(commands).toEqual(
      expect.arrayContaining([
        'livedocs list',
        'conversations list',
        'keys list',
        'slides themes list',
        'serve users list',
      ]),
    );
  });

  it.each(commands)('facet %s --json FIELD prints the records with only that field', async (command) => {
    const args = [...command.split(' '), ...(extra[command] ?? [])];
    const whole = okJson(await p.cli([...args, '--json']));
    const records = (Array.isArray(whole) ? whole : whole.items) as Array<Record<string, unknown>>;
    expect(records.length, `${command} --json: ${JSON.stringify(whole)}`).toBeGreaterThan(0);
    const field = Object.keys(records[0])[0];
    const picked = okJson(await p.cli([...args, '--json', field]));
    expect(picked).toEqual(records.map((r) => ({ [field]: r[field] })));
    // The `=` form is the same.
    expect(okJson(await p.cli([...args, `--json=${field}`]))).toEqual(picked);
  });
});

describe('--json WORD is settled by the command tree', () => {
  it('a group or an argument the command needs is not a field', async () => {
    expect(okJson(await p.cli(['--json', 'keys', 'list']))[0]).toHaveProperty('prefix');
    const ld = okJson(await p.cli(['livedocs', 'list', '--json', 'short_id']))[0].short_id;
    expect(okJson(await p.cli(['livedocs', 'get', '--json', ld]))).toHaveProperty('name', 'Lists');
    // With its argument given, the word after --json is a field again, as `gh pr view --json number 123`.
    expect(okJson(await p.cli(['livedocs', 'get', '--json', 'name', ld]))).toEqual({ name: 'Lists' });
  });

  it("paging metadata stays with --json alone; an unknown field names the records' fields", async () => {
    expect(okJson(await p.cli(['livedocs', 'list', '--json']))).toMatchObject({ page: 1, total: 1 });
    const r = await p.cli(['livedocs', 'list', '--json', 'nope']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/available fields: .*short_id/);
  });

  it('on a terminal the paging info of a shaped page goes to stderr; piped it does not', async () => {
    const piped = ok(await p.cli(['livedocs', 'list', '--json', 'name']));
    expect(piped.stderr).toBe('');
    const run = runOnPty(['livedocs', 'list', '--json', 'name'], { configDir: p.configDir });
    expect(await run.exited).toBe(0);
    expect(run.output()).toMatch(/page 1, 1 of 1 \(--limit N, --cursor C or --all for more\)/);
    expect(run.output()).toMatch(/"name": "Lists"/);
  });
});
