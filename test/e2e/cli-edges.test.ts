import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandTree } from '../helpers/command-tree.js';
import { serveHttpsPages, type HttpsPages } from '../helpers/https-pages.js';
import { ok, okJson, startPlatform, tempDir, type Platform } from '../helpers/platform.js';
import { runOnPty } from '../helpers/pty.js';

/** Issue 41's CLI rows, each as a user met it: what the command printed and how it exited. */
let p: Platform;
let tls: HttpsPages;
let ld: string;
let res: string;
beforeAll(async () => {
  tls = await serveHttpsPages(tempDir('tls'), { slowMs: 1000 });
  p = await startPlatform({ env: { NODE_EXTRA_CA_CERTS: tls.caFile } });
  ld = okJson(await p.cli(['livedocs', 'create', 'Edges', '--json'])).short_id;
  res = okJson(
    await p.cli(['livedocs', 'resources', 'add-doc', ld, '--title', 'Harbour', '--content', 'Green light.', '--json']),
  ).id;
  ok(await p.cli(['keys', 'create', '--name', 'a-second-key-with-a-longer-name']));
  ok(
    await p.cli(['tasks', 'create', '--kind', 'illustration', '--prompt', 'a lighthouse', '--size', '64x64', '--wait']),
  );
}, 120_000);
afterAll(async () => {
  p?.cleanup();
  await tls?.close();
});

describe('one output contract', () => {
  it('global flags work before the command name as after it', async () => {
    const ids = okJson<Array<{ id: string }>>(await p.cli(['--json', 'id', 'keys', 'list']));
    expect(ids.length).toBeGreaterThan(1);
    for (const k of ids) expect(Object.keys(k)).toEqual(['id']);
    expect(ok(await p.cli(['--jq', 'length', 'keys', 'list'])).stdout).toBe(`${ids.length}\n`);
    expect(ok(await p.cli(['--profile', 'local', '--jq', 'length', 'keys', 'list'])).stdout).toBe(`${ids.length}\n`);
    expect(ok(await p.cli(['--base-url', p.url, 'keys', 'list', '--jq', 'length'])).stdout).toBe(`${ids.length}\n`);
  });

  it('a field list selects from the records a body holds under a key, not from the body', async () => {
    const posts = okJson<Array<Record<string, unknown>>>(
      await p.cli(['social', 'search', 'coffee', '--limit', '3', '--json', 'id,content']),
    );
    expect(posts).toHaveLength(3);
    for (const post of posts) expect(Object.keys(post).sort()).toEqual(['content', 'id']);
    const users = okJson<Array<Record<string, unknown>>>(
      await p.cli(['social', 'users', 'search', 'coffee', '--json', 'username']),
    );
    expect(users.length).toBeGreaterThan(0);
    for (const u of users) expect(Object.keys(u)).toEqual(['username']);
    const tweets = okJson<Array<Record<string, unknown>>>(
      await p.cli(['social', 'users', 'tweets', 'zoe77', '--json', 'id']),
    );
    for (const t of tweets) expect(Object.keys(t)).toEqual(['id']);
    const links = okJson<Array<Record<string, unknown>>>(
      await p.cli(['beta', 'backlinks', 'example.com', '--limit', '3', '--json', 'url_from']),
    );
    expect(links).toHaveLength(3);
    for (const l of links) expect(Object.keys(l)).toEqual(['url_from']);
    // replies: the list is the replies of every post asked about (an id is digits, so `id` is a field)
    const replies = okJson(await p.cli(['social', 'replies', '1764529580005993', '--json', 'id']));
    expect(Array.isArray(replies)).toBe(true);
    for (const r of replies as Array<Record<string, unknown>>) expect(Object.keys(r)).toEqual(['id']);
    // a one-record command keeps its own fields, though it holds a list
    expect(Object.keys(okJson(await p.cli(['livedocs', 'resources', 'get', ld, res, '--json', 'title'])))).toEqual([
      'title',
    ]);
  });

  it('FACET_LIVEDOC fills the LiveDoc, so the word after --json is a field', async () => {
    const env = { FACET_LIVEDOC: ld };
    const listed = okJson<Array<Record<string, unknown>>>(
      await p.cli(['livedocs', 'resources', 'list', '--json', 'id'], { env }),
    );
    expect(listed).toEqual([{ id: res }]);
    expect(okJson(await p.cli(['livedocs', 'resources', 'get', res, '--json', 'title'], { env }))).toEqual({
      title: 'Harbour',
    });
  });

  it('an error under --json is one JSON document on stderr, stdout empty', async () => {
    const r = await p.cli(['tasks', 'get', 'task_nope', '--json']);
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr).error).toMatchObject({ status: 404, code: expect.any(String) });
    const usage = await p.cli(['keys', 'delete', 'key_nope', '--json']);
    expect(usage.exitCode).toBe(2);
    expect(JSON.parse(usage.stderr).error).toMatchObject({ code: 'usage', hint: expect.stringMatching(/--yes/) });
  });

  it('bare --json on a terminal prints the JSON and lists the fields --json a,b could keep', async () => {
    const run = runOnPty(['keys', 'list', '--json'], { configDir: p.configDir, env: { FACET_PAGER: 'cat' } });
    expect(await run.exited).toBe(0);
    expect(run.output()).toMatch(/fields for --json a,b: .*\bid\b.*\bname\b/);
  });
});

describe('tables at 80 columns', () => {
  it('admin usage keeps key ids whole and its COST; beta backlinks keeps its source URLs whole', async () => {
    ok(await p.cli(['llm', 'facet-echo', 'hello']));
    const usage = runOnPty(['admin', 'usage'], { configDir: p.configDir, cols: 80, env: { FACET_PAGER: 'cat' } });
    expect(await usage.exited, usage.tail()).toBe(0);
    const keyId = okJson(await p.cli(['whoami', '--json'])).api_key.id as string;
    const lines = usage.output().split(/\r?\n/);
    expect(lines[0]).toMatch(/^KEY +.*COST$/);
    expect(
      lines.find((l) => l.startsWith(keyId)),
      usage.output(),
    ).toMatch(/\$\d+\.\d{6}$/);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);

    const links = runOnPty(['beta', 'backlinks', 'example.com', '--limit', '5'], {
      configDir: p.configDir,
      cols: 80,
      env: { FACET_PAGER: 'cat' },
    });
    expect(await links.exited, links.tail()).toBe(0);
    const from = okJson(await p.cli(['beta', 'backlinks', 'example.com', '--limit', '5', '--json', 'url_from']));
    for (const { url_from } of from as Array<{ url_from: string }>) expect(links.output()).toContain(url_from);
    const rows = links
      .output()
      .split(/\r?\n/)
      .filter((l) => /^\d+ +https?:\/\//.test(l));
    expect(rows.length, links.output()).toBe(5);
    for (const l of rows) expect(l.length).toBeLessThanOrEqual(80);
  });
});

describe('exit codes and confirmations', () => {
  it('a batch scrape whose every page failed exits 6; piped it prints the job id alone', async () => {
    const r = await p.cli(['beta', 'scrape', 'https://127.0.0.1:9/a', 'https://127.0.0.1:9/b', '--wait']);
    expect(r.exitCode, r.stderr).toBe(6);
    expect(r.stdout).toMatch(/^bsj_[0-9a-z]+\n$/);
    expect(r.stderr).toMatch(/every page failed \(2 of 2\)/);
    const good = await p.cli(['beta', 'scrape', `${tls.url}/page/1`, '--wait']);
    expect(good.exitCode, good.stderr).toBe(0);
    expect(good.stdout).toMatch(/^bsj_[0-9a-z]+\n$/);
  });

  it('cancel has one answer everywhere: an ended task exits 1 saying so; one canceled already exits 0', async () => {
    const task = okJson(await p.cli(['tasks', 'list', '--json']))[0].id as string;
    const tasksAgain = await p.cli(['tasks', 'cancel', task]);
    expect(tasksAgain.exitCode).toBe(1);
    expect(tasksAgain.stderr).toMatch(/already succeeded/);
    const deck = okJson(await p.cli(['slides', 'create', 'Harbour', '--livedoc', ld, '--wait', '--json'])).task_id;
    const slides = await p.cli(['slides', 'cancel', deck]);
    expect(slides.exitCode).toBe(1);
    expect(slides.stderr).toMatch(/has already ended \(COMPLETED\)/);
    const job = okJson(await p.cli(['beta', 'scrape', `${tls.url}/page/2`, '--wait', '--json'])).id;
    const scrape = await p.cli(['beta', 'scrape', 'cancel', job]);
    expect(scrape.exitCode).toBe(1);
    expect(scrape.stderr).toMatch(/has already ended \(completed\)/);
    // A running deck, canceled twice: both exit 0.
    const running = okJson(await p.cli(['slides', 'create', 'Harbour again', '--livedoc', ld, '--json'])).task_id;
    const first = await p.cli(['slides', 'cancel', running]);
    if (first.exitCode === 0) expect(ok(await p.cli(['slides', 'cancel', running])).exitCode).toBe(0);
  });

  it('slides create --slides N that cannot be met says why, and the record counts the slides', async () => {
    const r = await p.cli(['slides', 'create', 'Harbour light', '--livedoc', ld, '--slides', '8', '--wait']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^task_[0-9a-z]+\n$/);
    expect(r.stderr).toMatch(
      /warning: \d of the 8 content slides asked for: the LiveDoc's text covers \d topics?; add documents/,
    );
    const record = okJson(await p.cli(['slides', 'get', r.stdout.trim(), '--json']));
    expect(record).toMatchObject({ slides_requested: 8, content_slides: expect.any(Number), note: expect.any(String) });
    expect(record.content_slides).toBeLessThan(8);
  });

  it('every destructive verb of the tree needs --yes without a terminal, before anything is sent', async () => {
    const tree = await commandTree();
    const destructive = tree
      .filter((c) => /^(delete|remove)|-(delete|remove)$|^(delete|remove)-/.test(c.command.name()))
      .map((c) => c.command);
    const words = (c: Command): string[] => (c.parent ? [...words(c.parent), c.name()] : []);
    expect(destructive.map((c) => words(c).join(' '))).toEqual(
      expect.arrayContaining(['keys delete', 'projects remove-site', 'projects delete-file', 'config profiles delete']),
    );
    for (const cmd of destructive) {
      // Well-formed ids that name nothing: refused for want of --yes, not for the id.
      const args = cmd.registeredArguments.flatMap((a) =>
        a.name() === 'profile' ? ['local'] : a.variadic ? ['x_1', 'x_2'] : [`x_${a.name()}`],
      );
      const r = await p.cli([...words(cmd), ...args]);
      expect(r.exitCode, `${words(cmd).join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr, words(cmd).join(' ')).toMatch(/confirmation needed/);
    }
  });

  it('projects remove-site needs --yes without a terminal, and removes nothing without it', async () => {
    const project = okJson(await p.cli(['projects', 'create', 'Sites', '--json'])).id;
    const site = okJson(await p.cli(['projects', 'add-site', project, `${tls.url}/page/3`, '--json'])).id;
    const refused = await p.cli(['projects', 'remove-site', project, site]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/confirmation needed/);
    expect(okJson(await p.cli(['projects', 'sites', project, '--json']))).toHaveLength(1);
    ok(await p.cli(['projects', 'remove-site', project, site, '--yes']));
    expect(okJson(await p.cli(['projects', 'sites', project, '--json']))).toHaveLength(0);
  });
});

describe('messages', () => {
  it('an error the CLI’s own flag caused names the flag, not the request field', async () => {
    const theme = await p.cli(['slides', 'create', 'Harbour', '--livedoc', ld, '--theme', 'nope']);
    expect(theme.exitCode).toBe(1);
    expect(theme.stderr).toMatch(/--theme "nope"/);
    expect(theme.stderr).not.toMatch(/ai_theme_id/);
    const livedoc = await p.cli([
      'pages',
      'create',
      'Harbour',
      '--livedoc',
      okJson(await p.cli(['livedocs', 'create', 'Bare', '--json'])).short_id,
    ]);
    expect(livedoc.exitCode).toBe(1);
    expect(livedoc.stderr).toMatch(/--livedoc: LiveDoc/);
    expect(livedoc.stderr).not.toMatch(/livedoc_short_id/);
  });

  it('a resume hint carries the global flags that chose the platform', async () => {
    const run = runOnPty(['--profile', 'local', 'tasks', 'wait', await slowTask()], {
      configDir: p.configDir,
    });
    await run.waitFor(/waiting|running|queued/);
    run.type('\x03');
    expect(await run.exited).toBe(130);
    expect(run.output()).toMatch(/follow it again with: facet --profile local tasks wait task_/);
  });
});

/** A screenshot of a page that answers late: a task still running while the test acts on it. */
async function slowTask(): Promise<string> {
  return okJson(await p.cli(['tasks', 'create', '--kind', 'screenshot', '--url', `${tls.url}/slow/1`, '--json'])).id;
}

describe('tables at 80 columns keep what matters', () => {
  const at80 = async (args: string[]) => {
    const run = runOnPty(args, { configDir: p.configDir, cols: 80, env: { FACET_PAGER: 'cat' } });
    expect(await run.exited, run.tail()).toBe(0);
    return run.output().replace(/\r/g, '');
  };
  const widest = (out: string) => Math.max(...out.split('\n').map((l) => [...l].length));
  /** No cell (columns are two spaces apart) cut down to a stub ("boo…", "PRE…"). */
  const noStubs = (out: string) => expect(out).not.toMatch(/(^|\s{2})\S{1,4}…/m);

  it('keys list: ids and names whole, the caller’s user id not repeated, the rest named on stderr', async () => {
    const out = await at80(['keys', 'list']);
    const keys = okJson<Array<{ id: string; name: string; user_id: string }>>(await p.cli(['keys', 'list', '--json']));
    for (const k of keys) {
      expect(out).toContain(k.id);
      expect(out).toContain(k.name);
    }
    expect(out).not.toContain(keys[0].user_id);
    expect(out).toMatch(/left out at this width \(.*\): --wide or --json shows/);
    noStubs(out);
    expect(
      widest(
        out
          .split('\n')
          .filter((l) => l.startsWith('key_') || l.startsWith('ID'))
          .join('\n'),
      ),
    ).toBeLessThanOrEqual(80);
  });

  it('tasks list', async () => {
    const out = await at80(['tasks', 'list']);
    expect(out).toMatch(/^ID\s+KIND\s+STATUS\s+INPUT/m);
    expect(out).toMatch(/task_[0-9a-z]{16}\s+illustration\s+succeeded/);
    noStubs(out);
  });

  it('admin audit never cuts the target id', async () => {
    const out = await at80(['admin', 'audit', '--limit', '5']);
    const entries = okJson<Array<{ target: { id: string | null } }>>(
      await p.cli(['admin', 'audit', '--limit', '5', '--json']),
    );
    for (const e of entries) if (e.target.id) expect(out).toContain(e.target.id);
    expect(out).toMatch(/^TIME\s+(ACTOR\s+)?ACTION\s+TARGET/m);
    noStubs(out);
  });

  it('beta whois keeps every domain whole', async () => {
    const out = await at80(['beta', 'whois', '--limit', '5']);
    const [page] = okJson<Array<{ items: Array<{ domain: string }> }>>(
      await p.cli(['beta', 'whois', '--limit', '5', '--json']),
    );
    for (const item of page.items) expect(out).toContain(item.domain);
    noStubs(out);
  });

  it('social search keeps the author, time and text; the counts go first', async () => {
    const out = await at80(['social', 'search', 'coffee', '--limit', '4']);
    expect(out).toMatch(/^ID\s+AUTHOR\s+TIME\s+.*TEXT/m);
    expect(out).toMatch(/\d{16}\s+@\w+\s+\d+ \w+ ago/);
    expect(out).toMatch(/left out at this width \((.*REPLIES.*)\)/);
    noStubs(out);
  });
});
