import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandTree } from '../helpers/command-tree.js';
import { servePages, type PageServer } from '../helpers/pages.js';
import { serveHttpsPages, type HttpsPages } from '../helpers/https-pages.js';
import { ok, okJson, startPlatform, tempDir, type CliResult, type Platform } from '../helpers/platform.js';

/**
 * The output contract, proved on the whole CLI: every command that prints data, read from
 * commander's tree, run piped against one `facet serve` with `--json` after it or `--jq .` before
 * it (by turns), prints valid JSON and exits 0. A command added to the CLI
 * fails the first test until it is given arguments here or a reason to be left out.
 */

/** Every command with an action, as words (`livedocs resources get`). */
const commandsOfTheTree = async () => (await commandTree()).filter((c) => c.runs).map((c) => c.words);

/** Left out, each with why: they print no JSON data, or need what a test machine does not have. */
const LEFT_OUT: Record<string, string> = {
  serve: 'runs the platform until stopped; its --json is tested in cli-core.test.ts',
  'serve migrate': 'needs a PostgreSQL server (test/e2e/serve-migrate.test.ts, with FACET_TEST_DATABASE_URL)',
  completion: 'prints a shell script, not data',
  mcp: 'an MCP server on stdio: its stdout is protocol messages only (test/e2e/mcp.test.ts)',
  'completion install': "writes the shell's start-up file, not data",
  __complete: 'hidden: prints completion words for the shell, not data',
  'tasks cat': "prints an artifact's bytes (a PNG), not data",
  'tasks download': 'writes files, not data',
  'slides download': 'writes the .pptx file, not data',
  'livedocs resources download': "writes the resource's file, not data",
  'pages open': 'opens a browser (or prints the URL for one), not data',
  'conversations stream': 'follows a live stream key that ends once read; the answer is covered by `ask`',
  'logs tail': 'follows requests until stopped (test/e2e/logs-tail.test.ts)',
  'livedocs resources ppt-retrieve': 'needs a .pptx deck resource (test/e2e/decks-answer-query.test.ts)',
  'pages retry':
    'only a PENDING or FAILED page runs again, and a page task fails only when the model service does (landing-pages.test.ts)',
  'slides cancel':
    'a deck is written in seconds (its previews come after), before a cancel can reach it, and an ended task is exit 1 by design; cancelling a running doc task is doc-tasks.test.ts',
  'pages cancel':
    'a landing page is written before a cancel can reach it, and an ended task is exit 1 by design (cancel-answers.test.ts)',
};

interface Run {
  args: string[];
  input?: string;
  env?: Record<string, string>;
}

let p: Platform;
let pages: PageServer;
let tls: HttpsPages;
/** A page that takes its time, so a screenshot task of it is still running when it is cancelled. */
let slow: http.Server;
let slowUrl: string;
let dir: string;
let n = 0;
const uniq = (prefix: string) => `${prefix}${++n}${Date.now().toString(36)}`;
const json = async (args: string[]) => okJson(await p.cli([...args, '--json']));
const F: Record<string, string> = {};

/** The minimal valid arguments of each command; a function makes a fresh target for each run. */
const ARGS: Record<string, string[] | (() => Promise<Run | string[]> | Run | string[])> = {
  // Config dirs of their own: a login makes its profile the current one, and `status` checks them all.
  login: () => ({
    args: ['login', '--profile', uniq('p'), '--api-key-stdin', '--base-url', p.url],
    input: p.boot.api_key,
    env: { FACET_CONFIG_DIR: tempDir('login') },
  }),
  logout: async () => {
    const env = { FACET_CONFIG_DIR: tempDir('logout') };
    const profile = uniq('p');
    const login = ['login', '--profile', profile, '--api-key-stdin', '--base-url', p.url];
    ok(await p.cli(login, { input: p.boot.api_key, env }));
    return { args: ['logout', '--profile', profile], env };
  },
  whoami: ['whoami'],
  'auth token': ['auth', 'token'],
  status: ['status'],
  'config list': ['config', 'list'],
  'config get': ['config', 'get', 'base_url'],
  'config set': () => ['config', 'set', 'default_livedoc', F.ld],
  'config unset': ['config', 'unset', 'default_livedoc'],
  'config profiles list': ['config', 'profiles', 'list'],
  'config profiles delete': async () => {
    const profile = uniq('p');
    ok(await p.cli(['login', '--profile', profile, '--api-key-stdin', '--base-url', p.url], { input: p.boot.api_key }));
    ok(await p.cli(['config', 'use', 'local']));
    return ['config', 'profiles', 'delete', profile, '--yes'];
  },
  'config use': ['config', 'use', 'local'],
  'keys list': ['keys', 'list'],
  'keys create': () => ['keys', 'create', '--name', uniq('k')],
  'keys delete': async () => ['keys', 'delete', (await json(['keys', 'create', '--name', uniq('k')])).id, '--yes'],
  'admin keys list': ['admin', 'keys', 'list'],
  'admin keys create': () => ['admin', 'keys', 'create', '--user', p.boot.user_id, '--name', uniq('k')],
  'admin keys delete': async () => ['admin', 'keys', 'delete', (await json(['keys', 'create'])).id, '--yes'],
  'admin keys freeze': async () => ['admin', 'keys', 'freeze', (await json(['keys', 'create'])).id],
  'admin keys unfreeze': async () => {
    const id = (await json(['keys', 'create'])).id;
    ok(await p.cli(['admin', 'keys', 'freeze', id]));
    return ['admin', 'keys', 'unfreeze', id];
  },
  'admin usage': ['admin', 'usage'],
  'admin models list': ['admin', 'models', 'list'],
  'admin models show': ['admin', 'models', 'show', 'facet-echo'],
  'admin models hide': ['admin', 'models', 'hide', 'aster-mini'],
  'admin audit': ['admin', 'audit', '--limit', '5'],
  audit: ['audit', '--limit', '5'],
  'projects list': ['projects', 'list'],
  'projects create': () => ['projects', 'create', uniq('prj')],
  'projects update': () => ['projects', 'update', F.project, '--description', 'updated'],
  'projects delete': async () => ['projects', 'delete', (await json(['projects', 'create', uniq('prj')])).id, '--yes'],
  'projects upload': () => ['projects', 'upload', F.project, path.join(dir, 'notes.md')],
  'projects files': () => ['projects', 'files', F.project],
  'projects delete-file': async () => {
    const [file] = await json(['projects', 'upload', F.project, path.join(dir, 'notes.md')]);
    return ['projects', 'delete-file', F.project, file?.id ?? file, '--yes'];
  },
  'projects sites': () => ['projects', 'sites', F.project],
  'projects add-site': () => ['projects', 'add-site', F.project, `${pages.url}/about?${uniq('q')}`],
  'projects remove-site': async () => {
    const site = await json(['projects', 'add-site', F.project, `${pages.url}/about?${uniq('q')}`]);
    return ['projects', 'remove-site', F.project, site.id, '--yes'];
  },
  'tasks list': ['tasks', 'list'],
  'tasks create': () => ['tasks', 'create', '--kind', 'illustration', '--prompt', 'a lighthouse', '--size', '64x64'],
  'tasks get': () => ['tasks', 'get', F.task],
  'tasks wait': () => ['tasks', 'wait', F.task],
  'tasks cancel': async () => [
    'tasks',
    'cancel',
    (await json(['tasks', 'create', '--kind', 'screenshot', '--url', slowUrl])).id,
  ],
  'tasks retry': async () => {
    const t = await json(['tasks', 'create', '--kind', 'screenshot', '--url', slowUrl]);
    ok(await p.cli(['tasks', 'cancel', t.id]));
    await p.cli(['tasks', 'wait', t.id]); // exit 6 once it has stopped: canceled
    return ['tasks', 'retry', t.id];
  },
  'tasks logs': () => ['tasks', 'logs', F.task],
  'tasks files': () => ['tasks', 'files', F.task],
  'models list': ['models', 'list'],
  'models get': ['models', 'get', 'facet-echo'],
  llm: ['llm', 'facet-echo', 'hello'],
  'livedocs list': ['livedocs', 'list'],
  'livedocs create': () => ['livedocs', 'create', uniq('ld')],
  'livedocs get': () => ['livedocs', 'get', F.ld],
  'livedocs update': () => ['livedocs', 'update', F.ld, '--description', 'updated'],
  'livedocs delete': async () => [
    'livedocs',
    'delete',
    (await json(['livedocs', 'create', uniq('ld')])).short_id,
    '--yes',
  ],
  'livedocs resources list': () => ['livedocs', 'resources', 'list', F.ld],
  'livedocs resources get': () => ['livedocs', 'resources', 'get', F.ld, F.res],
  'livedocs resources update': () => ['livedocs', 'resources', 'update', F.ld, F.res, '--title', 'Harbour notes'],
  'livedocs resources content': () => ['livedocs', 'resources', 'content', F.ld, F.res],
  'livedocs resources add-url': () => ['livedocs', 'resources', 'add-url', F.ld, `${pages.url}/about?${uniq('q')}`],
  'livedocs resources add-doc': () => [
    'livedocs',
    'resources',
    'add-doc',
    F.ld,
    '--title',
    'Doc',
    '--content',
    '# Doc',
  ],
  'livedocs resources set-content': () => [
    'livedocs',
    'resources',
    'set-content',
    F.ld,
    F.res,
    '--content',
    'The harbour light is green.',
  ],
  'livedocs resources upload': () => ['livedocs', 'resources', 'upload', F.ld, path.join(dir, 'notes.md')],
  'livedocs resources upload-doc': () => ['livedocs', 'resources', 'upload-doc', F.ld, path.join(dir, 'notes.md')],
  'livedocs resources delete': async () => {
    const r = await json(['livedocs', 'resources', 'add-doc', F.ld, '--title', 'Gone', '--content', '# Gone']);
    return ['livedocs', 'resources', 'delete', F.ld, r.id, '--yes'];
  },
  'livedocs resources retrieve': () => ['livedocs', 'resources', 'retrieve', F.ld, 'harbour light'],
  'livedocs resources route': () => ['livedocs', 'resources', 'route', F.ld, 'harbour light'],
  chat: ['chat', 'What colour is the harbour light?'],
  'conversations start': () => ['conversations', 'start', 'What colour is the light?', '--livedoc', F.ld],
  'conversations follow-up': () => ['conversations', 'follow-up', F.thread, 'And at night?'],
  'conversations list': ['conversations', 'list'],
  'conversations get': () => ['conversations', 'get', F.thread],
  ask: () => ['ask', 'What colour is the harbour light?', '--livedoc', F.ld],
  'slides themes list': ['slides', 'themes', 'list'],
  'slides themes create': () => [
    'slides',
    'themes',
    'create',
    uniq('Theme'),
    '--background',
    '#ffffff',
    '--text',
    '#111111',
    '--accent',
    '#0055aa',
  ],
  'slides themes import': () => ['slides', 'themes', 'import', path.join(dir, 'deck.pptx')],
  'slides themes delete': async () => {
    const t = await json(['slides', 'themes', 'import', path.join(dir, 'deck.pptx')]);
    return ['slides', 'themes', 'delete', t.id, '--yes'];
  },
  'slides create': () => ['slides', 'create', 'Harbour lights', '--livedoc', F.ld],
  'slides status': () => ['slides', 'status', F.deck],
  'slides get': () => ['slides', 'get', F.deck],
  'slides wait': () => ['slides', 'wait', F.deck],
  'slides retry': async () => {
    const failed = (await json(['slides', 'create', 'Harbour', '--livedoc', F.empty])).task_id;
    await p.cli(['slides', 'wait', failed]); // exit 6: FAILED, nothing to build from
    return ['slides', 'retry', failed];
  },
  'pages create': () => ['pages', 'create', 'Harbour lights', '--livedoc', F.ld],
  'pages status': () => ['pages', 'status', F.page],
  'pages get': () => ['pages', 'get', F.page],
  'pages wait': () => ['pages', 'wait', F.page],
  'social users info': ['social', 'users', 'info', 'zoe77'],
  'social users search': ['social', 'users', 'search', 'coffee'],
  'social users tweets': ['social', 'users', 'tweets', 'zoe77'],
  'social search': ['social', 'search', 'coffee', '--limit', '3'],
  'social replies': ['social', 'replies', '1764529580005993'],
  extract: () => ['extract', `${pages.url}/about`],
  subtitles: ['subtitles', 'facetDemo01'],
  mindmap: () => ['mindmap', 'Harbour lights', '--livedoc', F.ld],
  'beta backlinks': ['beta', 'backlinks', 'example.com', '--limit', '3'],
  'beta whois': ['beta', 'whois', '--limit', '3'],
  'beta volume': ['beta', 'volume', 'coffee'],
  'beta reviews post': ['beta', 'reviews', 'post', 'example.com'],
  'beta reviews ready': ['beta', 'reviews', 'ready'],
  'beta reviews get': () => ['beta', 'reviews', 'get', F.review],
  'beta reviews callbacks': () => ['beta', 'reviews', 'callbacks', F.review],
  'beta locations': ['beta', 'locations', 'google_play'],
  'beta traffic': ['beta', 'traffic', 'example.com', '--from', '2026-01', '--to', '2026-03'],
  'beta income': ['beta', 'income', 'AAPL', '--period', 'annual', '--limit', '1'],
  'beta insiders': ['beta', 'insiders', 'MSFT'],
  'beta scrape': () => ['beta', 'scrape', `${tls.url}/page/${++n}`],
  'beta scrape get': () => ['beta', 'scrape', 'get', F.scrape],
  'beta scrape wait': () => ['beta', 'scrape', 'wait', F.scrapeDone],
  'beta scrape cancel': async () => {
    const from = ++n * 100;
    const urls = Array.from({ length: 30 }, (_, i) => `${tls.url}/slow/${from + i}`);
    const job = await json(['beta', 'scrape', ...urls, '--concurrency', '1']);
    return ['beta', 'scrape', 'cancel', job.id];
  },
  'beta social replies': ['beta', 'social', 'replies', '1764529580005993'],
  'beta social search': ['beta', 'social', 'search', 'coffee'],
  api: ['api', '/v2/livedocs'],
  'serve users create': () => ['serve', 'users', 'create', uniq('u'), '--data-dir', p.dataDir],
  'serve users list': () => ['serve', 'users', 'list', '--data-dir', p.dataDir],
  'serve users credits': () => ['serve', 'users', 'credits', 'admin', '+1', '--data-dir', p.dataDir],
  'serve users plan': () => ['serve', 'users', 'plan', 'admin', 'paid', '--data-dir', p.dataDir],
  'serve token': () => ['serve', 'token', 'admin', '--data-dir', p.dataDir],
  'serve usage record': () => [
    'serve',
    'usage',
    'record',
    '--user',
    'admin',
    '--model',
    'facet-echo',
    '--cost',
    '1',
    '--data-dir',
    p.dataDir,
  ],
  'serve share': () => ['serve', 'share', F.ld, F.otherUser, '--data-dir', p.dataDir],
  'serve seed': () => ['serve', 'seed', path.join(dir, 'fixtures.json')],
  'serve social import': () => ['serve', 'social', 'import', path.join(dir, 'social.jsonl'), '--data-dir', p.dataDir],
  'serve data import': () => [
    'serve',
    'data',
    'import',
    'backlinks',
    path.join(dir, 'links.csv'),
    '--data-dir',
    p.dataDir,
  ],
  'serve subtitles import': () => [
    'serve',
    'subtitles',
    'import',
    'harbour0001',
    path.join(dir, 'track.vtt'),
    '--data-dir',
    p.dataDir,
  ],
};

beforeAll(async () => {
  pages = await servePages({
    '/about': {
      type: 'text/html; charset=utf-8',
      body: '<html><head><title>About</title></head><body><p>The harbour light is green.</p></body></html>',
    },
  });
  tls = await serveHttpsPages(tempDir('tls'), { slowMs: 1000 });
  slow = http.createServer((_req, res) => {
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>late</p>'), 8000).unref();
  });
  await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
  slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/slow`;
  p = await startPlatform({ env: { NODE_EXTRA_CA_CERTS: tls.caFile } });
  dir = tempDir('every');
  writeFileSync(path.join(dir, 'notes.md'), '# Notes\n\nThe harbour light is green.\n');
  writeFileSync(
    path.join(dir, 'fixtures.json'),
    JSON.stringify({ fixtures: [{ name: 'p', method: 'POST', path: '/projects', params: { name: 'seeded' } }] }),
  );
  writeFileSync(
    path.join(dir, 'social.jsonl'),
    JSON.stringify({
      type: 'tweet',
      id: '1999000000000002',
      text: 'imported',
      createdAt: 'Wed Dec 24 11:00:00 +0000 2025',
      lang: 'en',
      likeCount: 1,
      replyCount: 0,
      entities: { hashtags: [], urls: [], user_mentions: [] },
      author: { type: 'user', userName: 'camel', id: '77000002', name: 'Camel Case', followers: 1 },
    }) + '\n',
  );
  writeFileSync(
    path.join(dir, 'links.csv'),
    'target,url_from,url_to,rank,dofollow\nmine.example,https://a.example/x,https://mine.example/,300,true\n',
  );
  writeFileSync(path.join(dir, 'track.vtt'), 'WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nThe harbour light.\n');
  F.ld = (await json(['livedocs', 'create', 'Every command'])).short_id;
  F.res = (
    await json([
      'livedocs',
      'resources',
      'add-doc',
      F.ld,
      '--title',
      'Harbour',
      '--content',
      'The harbour light is green.',
    ])
  ).id;
  F.project = (await json(['projects', 'create', 'Every command'])).id;
  F.task = (
    await json(['tasks', 'create', '--kind', 'illustration', '--prompt', 'a lighthouse', '--size', '64x64', '--wait'])
  ).id;
  F.thread = (
    await json(['conversations', 'start', 'What colour is the harbour light?', '--livedoc', F.ld])
  ).thread_short_id;
  F.deck = (await json(['slides', 'create', 'Harbour lights', '--livedoc', F.ld, '--wait'])).task_id;
  ok(await p.cli(['slides', 'download', F.deck, '--out', path.join(dir, 'deck.pptx')]));
  F.page = (await json(['pages', 'create', 'Harbour lights', '--livedoc', F.ld, '--wait'])).task_id;
  // Tasks that fail (a LiveDoc with no text), for `retry`.
  F.empty = (await json(['livedocs', 'create', 'Empty'])).short_id;
  F.review = (await json(['beta', 'reviews', 'post', 'example.com'])).id;
  F.scrape = (await json(['beta', 'scrape', `${tls.url}/page/1`])).id;
  F.scrapeDone = (await json(['beta', 'scrape', `${tls.url}/page/2`, '--wait'])).id;
  F.otherUser = uniq('u');
  ok(await p.cli(['serve', 'users', 'create', F.otherUser, '--data-dir', p.dataDir]));
}, 240_000);
afterAll(async () => {
  p?.cleanup();
  await pages?.close();
  await tls?.close();
  slow?.closeAllConnections();
  await new Promise<void>((r) => (slow ? slow.close(() => r()) : r()));
});

/** One JSON document, or (a command that streams records, as `tasks logs`) one per line. */
const parses = (r: CliResult) => {
  try {
    JSON.parse(r.stdout);
    return true;
  } catch {
    const lines = r.stdout.split('\n').filter(Boolean);
    try {
      return lines.length > 1 && lines.every((l) => JSON.parse(l) !== undefined);
    } catch {
      return false;
    }
  }
};

describe('every command that prints data, piped', async () => {
  const commands = await commandsOfTheTree();

  it('is given arguments here, or a reason to be left out', () => {
    const missing = commands.filter((c) => !(c in ARGS) && !(c in LEFT_OUT));
    expect(missing, 'commands with neither arguments nor a reason').toEqual([]);
    const stale = [...Object.keys(ARGS), ...Object.keys(LEFT_OUT)].filter((c) => !commands.includes(c));
    expect(stale, 'entries for commands the CLI no longer has').toEqual([]);
  });

  const run = commands.filter((c) => c in ARGS);
  it.each(run.map((c, i) => [c, i % 2 === 0 ? '--json after it' : '--jq . before it'] as const))(
    'facet %s, with %s: prints valid JSON and exits 0',
    async (command, how) => {
      // One form per command, alternating: where a global flag may stand and what --jq . adds are
      // the parser's and the output layer's, not the command's (cli-edges.test.ts checks both
      // positions of every global flag). Each command's run makes its own fixtures, all CLI calls.
      const form = how === '--json after it' ? (a: string[]) => [...a, '--json'] : (a: string[]) => ['--jq', '.', ...a];
      const entry = ARGS[command];
      const made = typeof entry === 'function' ? await entry() : entry;
      const spec: Run = Array.isArray(made) ? { args: made } : made;
      const args = form(spec.args);
      const r = await p.cli(args, { input: spec.input, env: spec.env });
      const said = `facet ${args.join(' ')}\nexit ${r.exitCode}\nstderr: ${r.stderr}\nstdout: ${r.stdout}`;
      expect(r.exitCode, said).toBe(0);
      expect(parses(r), said).toBe(true);
    },
    120_000,
  );
});
