import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ok, okJson, startPlatform, type Platform } from '../helpers/platform.js';

let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
  ok(await p.cli(['keys', 'create', '--name', 'a-rather-long-key-name-that-does-not-fit-a-narrow-terminal']));
});
afterAll(() => p?.cleanup());

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A facet command (`keys list` unless told) on a pseudo-terminal of the given width (util-linux script). */
async function onTerminal(
  cols: number,
  env: Record<string, string> = {},
  args = ['keys', 'list'],
  exitCode = 0,
): Promise<string> {
  const r = await execa(
    'script',
    ['-qfec', `stty cols ${cols} rows 40; node ${BIN} ${args.map(quote).join(' ')}`, '/dev/null'],
    {
      env: { FACET_CONFIG_DIR: p.configDir, CI: 'true', NO_COLOR: undefined, FORCE_COLOR: undefined, ...env },
      reject: false,
      timeout: 30_000,
    },
  );
  expect(r.exitCode, r.stdout).toBe(exitCode);
  return r.stdout.replace(/\r/g, '');
}

const visible = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');
/** Columns a line takes on the terminal: CJK and emoji take two. */
const columns = (s: string) =>
  [...visible(s)].reduce(
    (n, ch) =>
      n + (/[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60\u{1f300}-\u{1faff}]/u.test(ch) ? 2 : 1),
    0,
  );
const HOSTILE = '\u001b]0;pwned\u0007';
const SHOWN = '\\u001b]0;pwned\\u0007';

describe('tables on a terminal', () => {
  it('have no box lines, fit the width without wrapping, keep ids and names whole and show relative times', async () => {
    const out = await onTerminal(100);
    // The table's three lines, then (stderr) the columns left out at this width.
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[3]).toMatch(/left out at this width \(.*\): --wide or --json shows/);
    expect(out).not.toMatch(/[│┌─┐└┘]/);
    for (const line of lines) expect(visible(line).length).toBeLessThanOrEqual(100);
    expect(visible(lines[0])).toMatch(/^ID\s+NAME\s+/);
    expect(out).toMatch(/key_\w{16}/);
    expect(out).toContain('a-rather-long-key-name-that-does-not-fit-a-narrow-terminal');
    const wide = await onTerminal(200);
    expect(wide).toMatch(/just now|minutes? ago/);
    expect(wide).not.toMatch(/\d{4}-\d\d-\d\dT/);
  });

  it('colour statuses unless NO_COLOR', async () => {
    expect(await onTerminal(200)).toContain('\x1b[32mactive\x1b[39m');
    expect(await onTerminal(200, { NO_COLOR: '1' })).not.toMatch(/\x1b\[/);
  });

  it("keep ids, names and statuses whole at 80 columns; not the caller's own user id on every row", async () => {
    const out = await onTerminal(80, { NO_COLOR: '1' });
    const lines = out.trimEnd().split('\n');
    const ids = okJson<Array<{ id: string; user_id: string; name: string }>>(await p.cli(['keys', 'list', '--json']));
    for (const k of ids) {
      expect(out).toContain(k.id);
      expect(out).toContain(k.name);
      expect(out).not.toContain(k.user_id);
    }
    const rows = lines.filter((l) => l.startsWith('key_'));
    expect(rows).toHaveLength(ids.length);
    expect(
      rows.every((l) => /\bactive\b/.test(l)),
      out,
    ).toBe(true);
    expect(out).not.toMatch(/…/);
    // A name longer than the room left: every other column gives way before it is cut.
    expect(visible(lines[0])).toMatch(/^ID\s+NAME\s+STATUS$/);
    expect(out).toMatch(/--wide or --json shows them/);
    const wide = await onTerminal(80, { NO_COLOR: '1' }, ['keys', 'list', '--wide']);
    expect(visible(wide.split('\n')[0])).toMatch(/^ID\s+NAME\s+PREFIX\s+USER\s+STATUS\s+CREATED\s+EXPIRES\s+LAST USED/);
    expect(wide).not.toMatch(/left out/);
  });
});

describe('text from the server on a terminal', () => {
  let hostileDoc: string;
  beforeAll(async () => {
    hostileDoc = ok(
      await p.cli(['livedocs', 'create', HOSTILE, '--description', `line one\n${HOSTILE}\u009b2J`]),
    ).stdout.trim();
    ok(await p.cli(['livedocs', 'create', '日本語の調査資料', '--description', '市場調査と価格の比較 🚀']));
    ok(await p.cli(['livedocs', 'create', 'plain research', '--description', 'competitors and pricing']));
  });

  it('a LiveDoc named with an OSC escape prints escaped in a list, never interpreted', async () => {
    const out = await onTerminal(120, {}, ['livedocs', 'list']);
    expect(out).toContain(SHOWN);
    expect(out).not.toContain('\u001b]');
    expect(out).not.toContain('\u0007');
    expect(out).not.toContain('\u009b');
    // Only the CLI's own colours are escapes: the bold header row.
    expect(out.replace(/\x1b\[[0-9;]*m/g, '')).not.toContain('\u001b');
  });

  it("and in its detail view, a value's further lines indented under its first", async () => {
    const out = await onTerminal(120, {}, ['livedocs', 'get', hostileDoc]);
    expect(visible(out)).toMatch(new RegExp(`name\\s+${SHOWN.replace(/[\\[\]]/g, '\\$&')}`));
    expect(visible(out)).toMatch(
      new RegExp(`\\ndescription {6}line one\\n {17}${SHOWN.replace(/[\\[\]]/g, '\\$&')}\\\\u009b2J\\n`),
    );
    expect(visible(out)).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });

  it('and in an error message', async () => {
    const out = await onTerminal(120, {}, ['livedocs', 'get', `x${HOSTILE}`], 4);
    expect(out).toContain(SHOWN);
    expect(visible(out)).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });

  it('piped with --json, the JSON is unchanged', async () => {
    const r = ok(await p.cli(['livedocs', 'get', hostileDoc, '--json']));
    expect(JSON.parse(r.stdout).name).toBe(HOSTILE);
    expect(r.stdout).toContain('"\\u001b]0;pwned\\u0007"');
  });

  it('CJK and emoji rows align at 80 columns', async () => {
    const out = await onTerminal(80, { NO_COLOR: '1' }, ['livedocs', 'list']);
    const lines = out.trimEnd().split('\n');
    const rows = lines.filter((l) => /日本語|plain research|pwned/.test(l));
    expect(rows).toHaveLength(3);
    // The SHARED/MODIFIED column starts at the same terminal column on every row (the header's).
    const modifiedAt = (l: string) => columns(l.slice(0, l.search(/just now|\d+ \w+ ago|MODIFIED/)));
    const starts = [lines[0], ...rows].map(modifiedAt);
    expect(new Set(starts).size, out).toBe(1);
    for (const line of lines) expect(columns(line), line).toBeLessThanOrEqual(80);
  });
});
