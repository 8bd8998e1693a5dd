import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocx, makePdf, makePptx } from '../helpers/documents.js';
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.js';
import { answerLoginPrompts, runOnPty, type PtyRun } from '../helpers/pty.js';
import { servePages, type PageServer } from '../helpers/pages.js';
import { BIN, ok, okJson, ROOT, startPlatform, tempDir, type Platform } from '../helpers/platform.js';

/**
 * Every `facet …` line of the README's ```sh blocks runs here, in README order, against a fresh
 * `facet serve` with no network: public sites are pages on 127.0.0.1, placeholders (`ld_…`, `res_…`,
 * `key_…`, file names) are real values made first, and `X=$(facet …)` lines set X for the lines after
 * them, as in a shell session. Optional parts (`[--limit N]`) are left out. A line that cannot run as
 * written gets an adapted invocation or a reason in ADAPTED below; a README line that is neither run
 * nor listed cannot exist, since every extracted line becomes a test of its own.
 */

// ---------------------------------------------------------------------------------------------
// Extraction

export interface Example {
  /** The logical line: `\` continuations joined, the trailing `# comment` removed. */
  line: string;
  section: string;
}

/** Cuts a `#` comment that starts outside quotes, after whitespace (so `a#b` and `'#'` stay). */
function stripComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) return line.slice(0, i).trimEnd();
  }
  return line.trimEnd();
}

const FACET_WORD = /(^|[\s|;&(])(facet|\.\/bin\/facet\.js)(\s|$)/;

export function extractExamples(markdown: string): Example[] {
  const out: Example[] = [];
  let section = '';
  let inSh = false;
  let inOther = false;
  let pending = '';
  for (const raw of markdown.split('\n')) {
    if (!inSh && !inOther) {
      if (/^#{1,6} /.test(raw)) section = raw.replace(/^#+ /, '');
      if (/^```sh\s*$/.test(raw)) inSh = true;
      else if (/^```/.test(raw)) inOther = true;
      continue;
    }
    if (/^```\s*$/.test(raw)) {
      inSh = inOther = false;
      pending = '';
      continue;
    }
    if (inOther) continue;
    const joined = pending + raw.trim();
    if (joined.endsWith('\\')) {
      pending = joined.slice(0, -1).trimEnd() + ' ';
      continue;
    }
    pending = '';
    const line = stripComment(joined).trim();
    if (FACET_WORD.test(line)) out.push({ line, section });
  }
  return out;
}

/** The JSON fixtures example of the README, which `--seed fixtures.json` lines apply. */
function readmeFixtures(markdown: string): string {
  const m = /```json\n(\{ "fixtures"[\s\S]*?)```/.exec(markdown);
  if (!m) throw new Error('README has no fixtures example');
  return m[1];
}

/** Optional parts of a synopsis (`[--limit N]`, `[--file ref.md]...`) are left out. */
const dropOptional = (line: string) => line.replace(/\s+\[[^\]]*\](?:\.\.\.)?/g, '');

// ---------------------------------------------------------------------------------------------
// The session the examples run in

interface Session {
  p: Platform;
  pages: PageServer;
  /** A page that never answers (a task fetching it stays running). */
  hangUrl: string;
  work: string;
  home: string;
  bin: string;
  /** Shell variables: set by `X=$(facet …)` lines, and $KEY/$TOKEN/$ADMIN as the README assumes. */
  vars: Record<string, string>;
  memo: Map<string, Promise<string>>;
}

type Value = (s: Session) => Promise<string>;

const cli = async (s: Session, args: string[]) =>
  ok(await s.p.cli(args, { env: { FACET_DATA_DIR: s.p.dataDir } })).stdout.trim();
const memo =
  (name: string, make: Value): Value =>
  (s) => {
    if (!s.memo.has(name)) s.memo.set(name, make(s));
    return s.memo.get(name)!;
  };
const need = (s: Session, name: string) => {
  const v = s.vars[name];
  if (!v) throw new Error(`$${name} is not set by an earlier README line`);
  return v;
};
/** A key nobody signs in with, so freezing or deleting it does not lock the session out. */
const freshKeyId: Value = async (s) =>
  okJson(await s.p.cli(['admin', 'keys', 'create', '--user', s.p.boot.user_id, '--name', 'readme', '--json'])).id;
const addDoc = (title: string, content: string): Value =>
  memo(title, async (s) =>
    cli(s, ['livedocs', 'resources', 'add-doc', need(s, 'LD'), '--title', title, '--content', content]),
  );
const conversation = memo('conversation', async (s) =>
  JSON.stringify(
    okJson(
      await s.p.cli([
        'conversations',
        'start',
        'What do the notes say?',
        '--livedoc',
        need(s, 'LD'),
        '--no-stream',
        '--json',
      ]),
    ),
  ),
);

/** Placeholders of the README and the real value each stands for (longest first where one contains another). */
const PLACEHOLDERS: Array<[string, Value]> = [
  ['key_0123456789abcdef', freshKeyId],
  ['key_…', memo('key', freshKeyId)],
  ['usr_…', async (s) => s.p.boot.user_id],
  ['ld_…', memo('ld', async (s) => cli(s, ['livedocs', 'create', 'Shared notes']))],
  [
    'res_deck',
    memo('deck', async (s) =>
      cli(s, ['livedocs', 'resources', 'upload', need(s, 'LD'), path.join(s.work, 'deck.pptx')]),
    ),
  ],
  ['res_a', addDoc('Refunds', '# Refunds\n\nRefunds within 30 days of purchase.')],
  ['res_b', addDoc('Europe', '# Europe\n\nPrices in Europe include VAT.')],
  ['res_…', addDoc('Pricing notes', '# Pricing\n\nThe refund policy gives 30 days. Pricing starts at 10 euros.')],
  ['thr_…', async (s) => JSON.parse(await conversation(s)).thread_short_id],
  ['stk_…', async (s) => JSON.parse(await conversation(s)).stream_key],
  ['file_…', async (s) => cli(s, ['projects', 'upload', need(s, 'PROJECT'), path.join(s.work, 'brief.md')])],
  ['https://api.example.com', async (s) => s.p.url],
  ['https://example.org', async (s) => s.pages.url],
  ['https://example.com', async (s) => s.pages.url],
];

async function substitute(s: Session, text: string, overrides: Record<string, Value> = {}): Promise<string> {
  // An override wins over the general placeholder of the same name (later entries of a Map win).
  const table = new Map<string, Value>([...PLACEHOLDERS, ...Object.entries(overrides)]);
  // One pass over the line as written, whole tokens only: a value put in is never scanned again.
  // (Replacing one placeholder after another turned a real id made for `res_…`, such as
  // res_bx6y…, into res_<id of res_b>x6y… whenever it began with `a` or `b`: the README's
  // rare `download … 404 RESOURCE_NOT_FOUND`.)
  const tokens = [...table.keys()]
    .sort((a, b) => b.length - a.length)
    .map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(`(${tokens.join('|')})(?![0-9A-Za-z_])`, 'g');
  let out = '';
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    out += text.slice(last, m.index) + (await table.get(m[1])!(s));
    last = m.index! + m[0].length;
  }
  return out + text.slice(last);
}

// ---------------------------------------------------------------------------------------------
// Lines that do not run as written, each with why and what runs instead (or why nothing does)

interface Adapted {
  why: string;
  /** The shell line run instead (placeholders are still replaced). */
  run?: string;
  /** Not run at all: the reason must say where the behaviour is tested instead. */
  skip?: boolean;
  /** The exit code the README says this example ends with (default 0). */
  exit?: number;
  /** What stderr must say (for examples that show an error). */
  stderr?: RegExp;
  /** What stdout must show. */
  stdout?: RegExp;
  /** Environment for this line only, applied last (e.g. FACET_BASE_URL of another platform). */
  env?: (s: Session) => Promise<Record<string, string>>;
  /** Placeholder values for this line only. */
  placeholders?: Record<string, Value>;
  /** Shell variables for this line only. */
  vars?: (s: Session) => Promise<Record<string, string>>;
  /** Run on a pseudo-terminal instead of a shell, typing what this driver types. */
  pty?: (run: PtyRun, s: Session) => Promise<void>;
  /** Run on a copy of the config dir, so a login or logout does not change the session's profile. */
  ownConfig?: boolean;
}

/** A second platform whose model upstreams are a fake OpenAI/Anthropic server on 127.0.0.1. */
let upstream: { up: FakeUpstream; p: Platform } | undefined;
const upstreamPlatform = memo('upstream', async () => {
  const up = await startFakeUpstream();
  const p = await startPlatform({
    args: ['--upstream-openai-base-url', up.openaiBase, '--upstream-anthropic-base-url', up.anthropicBase],
  });
  upstream = { up, p };
  return JSON.stringify({ FACET_BASE_URL: p.url, FACET_API_KEY: p.boot.api_key });
});
const withUpstream = async (s: Session): Promise<Record<string, string>> => JSON.parse(await upstreamPlatform(s));

/** A screenshot task of a page that never answers: it stays running until canceled. */
const hangingTask = memo('hanging-task', async (s) =>
  cli(s, ['tasks', 'create', '--kind', 'screenshot', '--url', s.hangUrl, '--size', '320x200']),
);
/** The hanging task once its cancel has taken effect (bounded: 30 s). */
async function canceledTask(s: Session): Promise<string> {
  const id = await hangingTask(s);
  for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((r) => setTimeout(r, 200))) {
    if (JSON.parse(await cli(s, ['tasks', 'get', id, '--json'])).status === 'canceled') {
      // The retry example waits for its task: the page answers now, so it ends in moments, not at the
      // screenshot's navigation timeout (which, on a loaded machine, was past the example's 30 s).
      hanging = false;
      return id;
    }
  }
  throw new Error(`task ${id} was not canceled within 30 s`);
}
const spareLd = memo('spare-ld', async (s) => cli(s, ['livedocs', 'create', 'Spare']));

const ADAPTED: Record<string, Adapted> = {
  "facet logs tail [--status 4xx|404,5xx] [--path '/v2/*'] [--key key_…] [--method POST] [--mine] [--json]": {
    why: 'follows requests until stopped; test/e2e/logs-tail.test.ts runs it in the background with each filter',
    skip: true,
  },
  'facet extract https://example.com/app --mode fine --wait-for "#content"': {
    why: 'the README page server has no /app page with a #content element: the same options on its home page, waiting for its <h1>',
    run: `facet extract ${'https://example.com'}/ --mode fine --wait-for h1`,
  },
  'facet serve subtitles import dQw4w9WgXcQ talk.vtt --language en [--kind manual|generated] [--title "Talk"]': {
    why: "talk.vtt is the user's own caption file: one is written in the working dir first",
    vars: async (s) => {
      writeFileSync(path.join(s.work, 'talk.vtt'), 'WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nHello from the README\n');
      return {};
    },
  },
  'facet beta scrape https://example.com/a https://example.com/b --wait --out pages/': {
    why: 'batch scrape takes HTTPS pages only and the README pages are plain HTTP; test/e2e/batch-scrape.test.ts scrapes HTTPS pages with a certificate it makes',
    skip: true,
  },
  'facet beta scrape --urls-file urls.txt --concurrency 20 --main-content --idempotency-key run-1': {
    why: 'HTTPS pages only (see above); tested in test/e2e/batch-scrape.test.ts',
    skip: true,
  },
  'facet beta scrape get|wait|cancel bsj_…': {
    why: 'needs a batch scrape job of HTTPS pages; get, wait and cancel are run by test/e2e/batch-scrape.test.ts',
    skip: true,
  },
  'facet serve [--host 127.0.0.1] [--port 8787] [--data-dir DIR] [--memory] [--database-url postgres://…] [--admin-key KEY] [--log-level info] [--no-profile] [--no-console]':
    {
      why: 'a server runs until stopped and 8787 may be taken: a free port, a temp data dir, and --exec to stop it once a command has used it',
      run: 'facet serve --host 127.0.0.1 --port 0 --data-dir "$SERVE_DIR" --log-level warn --no-profile --workers 2 --max-upload-mb 20 --max-keys-per-user 100 --allow-fetch-from 127.0.0.1 --exec "facet whoami"',
      vars: async (s) => ({ SERVE_DIR: path.join(s.work, 'serve-data') }),
    },
  'facet login': {
    why: 'prompts on a terminal: runs on a pseudo-terminal, on a copy of the config dir, answering the prompts with a new key',
    ownConfig: true,
    pty: async (run, s) => {
      const key = await cli(s, ['keys', 'create', '--name', 'readme-login']);
      await answerLoginPrompts(run, key, true);
    },
  },
  'echo "$KEY" | facet --profile prod login --api-key-stdin --base-url https://api.example.com': {
    why: 'the public base URL stands for this platform (placeholder); on a copy of the config dir',
    ownConfig: true,
  },
  'echo "$TOKEN" | facet login --token-stdin': {
    why: "replaces the current profile's token: on a copy of the config dir",
    ownConfig: true,
  },
  'echo "$ADMIN" | facet login --admin-key-stdin': { why: 'on a copy of the config dir', ownConfig: true },
  'facet login --local [--data-dir DIR]': {
    why: 'on a copy of the config dir (FACET_DATA_DIR names the platform)',
    ownConfig: true,
  },
  'facet logout [--all]': { why: 'would sign the session out: on a copy of the config dir', ownConfig: true },
  'facet config list | get KEY | set KEY VALUE | unset KEY | use PROFILE': {
    why: 'a synopsis of five verbs: each runs once, on a copy of the config dir',
    run: 'facet config list && facet config get base_url && facet config set default_livedoc ld_… && facet config unset default_livedoc && facet config use local',
    ownConfig: true,
  },
  'facet config profiles [list] | profiles delete NAME': {
    why: 'a synopsis of two verbs: both run, on a copy of the config dir with a second profile to delete',
    run: 'facet --profile spare config set base_url "$FACET_URL" && facet config profiles && facet config profiles list && facet config profiles delete spare',
    ownConfig: true,
  },
  'facet keys delete key_0123456789abcdef --yes': {
    why: 'the placeholder id is a fresh key of the session (PLACEHOLDERS)',
  },
  'facet admin keys delete key_… --yes': {
    why: 'deletes a key of its own, not the one the freeze examples after it use',
    placeholders: { 'key_…': freshKeyId },
  },
  'facet livedocs delete $LD --yes': {
    why: 'the README deletes $LD before its resources examples use it: a LiveDoc of its own',
    vars: async (s) => ({ LD: await spareLd(s) }),
  },
  'facet tasks cat $TASK result.json | jq .images': { why: 'runs as written (jq is on the test machines)' },
  'facet llm corvid-medium --surface messages --stream < prompt.txt': {
    why: 'needs an upstream (the README says so): runs against a second platform whose upstreams are a fake model server on 127.0.0.1; the refusal without one is tested in unconfigured-upstream.test.ts',
    env: withUpstream,
    stdout: /Say hello\./,
  },
  'facet llm aster-large "Hi" --surface responses --system "Be brief" --max-tokens 200 --json': {
    why: 'likewise needs an upstream: the platform with the fake one',
    env: withUpstream,
    stdout: /"object": "response"[\s\S]*"status": "completed"/,
  },
  'facet tasks cancel $TASK': {
    why: 'only a queued or running task can be canceled and $TASK has finished by then: a screenshot of a page that never answers, still running',
    vars: async (s) => ({ TASK: await hangingTask(s) }),
  },
  'facet tasks retry $TASK [--wait]': {
    why: 'only a failed or canceled task can be retried: the task the cancel example canceled, once it has ended (a cancel of a task still starting answers "cancel requested")',
    vars: async (s) => ({ TASK: await canceledTask(s) }),
  },
  'facet livedocs resources download $LD res_… -o report.pdf [--url-only] [--expires-in 600]': {
    why: 'only an uploaded file has a source to download (res_… is an ai_doc elsewhere): report.pdf uploaded',
    placeholders: {
      'res_…': memo('report', async (s) =>
        cli(s, ['livedocs', 'resources', 'upload', need(s, 'LD'), path.join(s.work, 'report.pdf')]),
      ),
    },
  },
  "facet serve --exec 'npm test'": {
    why: 'running the whole test suite inside a test would recurse: a command that uses the platform stands for npm test',
    run: 'facet serve --exec \'test -n "$FACET_API_KEY" && facet whoami\'',
  },
  "facet serve --seed fixtures.json --exec './e2e.sh'": {
    why: "runs as written: fixtures.json is the README's own example, e2e.sh lists the LiveDocs it made",
  },
  'facet completion install [--shell bash|zsh|fish|powershell]': {
    why: 'writes under $HOME: HOME is a temp dir for every line',
  },
  'facet completion zsh > "${fpath[1]}/_facet"': {
    why: "zsh syntax (${fpath[1]}): bash stands a temp dir in for zsh's first fpath entry",
    run: 'facet completion zsh > "$HOME/zfunc/_facet"',
  },
};

// ---------------------------------------------------------------------------------------------

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const examples = extractExamples(README);
let s: Session;
let hang: http.Server;
let hanging = true;

beforeAll(async () => {
  const page = (title: string, text: string) => ({
    body: `<html><head><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`,
  });
  const pages = await servePages({
    '/': page('Example', 'An example site for the README examples.'),
    '/about': page('About', 'Harbour lights and lanterns.'),
    '/pricing': page('Pricing', 'Plans start at 10 euros a month. Refunds within 30 days.'),
    '/faq': page('FAQ', 'What is the refund policy? Thirty days.'),
  });
  // Never answers until the cancel example has canceled its task; then the retried task finds a page.
  hang = http.createServer((_req, res) => {
    if (!hanging) res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Back</h1>');
  });
  await new Promise<void>((r) => hang.listen(0, '127.0.0.1', r));
  const hangUrl = `http://127.0.0.1:${(hang.address() as AddressInfo).port}/`;
  const p = await startPlatform();
  const work = tempDir('readme');
  const home = tempDir('home');
  const bin = tempDir('bin');
  // `facet` on PATH, as `npm link` puts it; `./bin/facet.js` as run from a clone.
  symlinkSync(BIN, path.join(bin, 'facet'));
  mkdirSync(path.join(work, 'bin'));
  symlinkSync(BIN, path.join(work, 'bin', 'facet.js'));
  for (const dir of ['.local/share/bash-completion/completions', '.config/fish/completions', 'zfunc'])
    mkdirSync(path.join(home, dir), { recursive: true });
  writeFileSync(path.join(work, 'brief.md'), '# Brief\n\nSpring banners with a lighthouse.\n');
  writeFileSync(path.join(work, 'ref.md'), '# Reference\n\nWarm colours.\n');
  writeFileSync(path.join(work, 'notes.md'), '# Notes\n\nThe refund window is 30 days.\n');
  writeFileSync(path.join(work, 'prompt.txt'), 'Say hello.\n');
  // A 1x1 PNG.
  writeFileSync(
    path.join(work, 'logo.png'),
    Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    ),
  );
  writeFileSync(path.join(work, 'report.pdf'), makePdf([['Quarterly report', 'Revenue grew.']]));
  writeFileSync(path.join(work, 'spec.docx'), await makeDocx('Spec', ['The refund policy is 30 days.']));
  writeFileSync(
    path.join(work, 'deck.pptx'),
    await makePptx([['Intro'], ['Market'], ['Revenue', 'Revenue doubled'], ['Plans']]),
  );
  writeFileSync(path.join(work, 'fixtures.json'), readmeFixtures(README));
  writeFileSync(path.join(work, 'e2e.sh'), '#!/bin/sh\nset -e\nfacet livedocs list\n', { mode: 0o755 });
  s = {
    p,
    pages,
    hangUrl,
    work,
    home,
    bin,
    memo: new Map(),
    vars: { KEY: p.boot.api_key, TOKEN: p.boot.access_token, ADMIN: p.boot.admin_key },
  };
});
afterAll(async () => {
  s?.p.cleanup();
  await s?.pages.close();
  upstream?.p.cleanup();
  await upstream?.up.close();
  hang?.closeAllConnections();
  hang?.close();
});

/** What the platform answered about the ids a failed line names (its journal): why a line failed, not only that it did. */
function responsesAbout(command: string, vars: Record<string, string>): string {
  const expanded = command.replace(/\$([A-Z_]+)/g, (m, name: string) => vars[name] ?? m);
  const ids = [...new Set(expanded.match(/\b[a-z]{2,4}_[0-9a-z]{8,}\b/g) ?? [])];
  if (ids.length === 0) return '(no ids)';
  return s.p
    .responses()
    .filter((e) => ids.some((id) => e.url.includes(id) || e.body?.includes(id)))
    .slice(-20)
    .map((e) => `  ${e.method} ${e.url} -> ${e.status} ${(e.body ?? '').slice(0, 300)}`)
    .join('\n');
}

async function runExample(ex: Example, adapted: Adapted | undefined) {
  const assignment = /^([A-Z_]+)=\$\((.*)\)$/.exec(dropOptional(ex.line));
  // `X=$(facet …)`: the command inside runs, and its stdout becomes $X for the lines after it.
  const source = adapted?.run ?? (assignment ? assignment[2] : dropOptional(ex.line));
  const command = await substitute(s, source, adapted?.placeholders);
  let configDir = s.p.configDir;
  if (adapted?.ownConfig) {
    configDir = tempDir('readme-config');
    cpSync(s.p.configDir, configDir, { recursive: true });
  }
  const vars = { ...s.vars, ...(await adapted?.vars?.(s)) };
  if (adapted?.pty) {
    // A terminal line is plain words (`facet login`): no shell runs it.
    const run = runOnPty(command.split(/\s+/).slice(1), {
      configDir,
      env: { HOME: s.home, FACET_DATA_DIR: s.p.dataDir },
    });
    await adapted.pty(run, s);
    expect(await run.exited, run.tail()).toBe(adapted.exit ?? 0);
    return;
  }
  const r = await execa('bash', ['-o', 'pipefail', '-c', command], {
    cwd: s.work,
    env: {
      ...vars,
      PATH: `${s.bin}${path.delimiter}${process.env.PATH}`,
      HOME: s.home,
      SHELL: '/bin/bash',
      FACET_CONFIG_DIR: configDir,
      FACET_DATA_DIR: s.p.dataDir,
      FACET_URL: s.p.url,
      FACET_API_KEY: undefined,
      FACET_BASE_URL: undefined,
      FACET_ACCESS_TOKEN: undefined,
      FACET_ADMIN_KEY: undefined,
      FACET_PROFILE: undefined,
      FACET_DEFAULT_LIVEDOC: undefined,
      FACET_ALLOW_FETCH_FROM: undefined,
      NO_COLOR: '1',
      CI: 'true',
      ...(await adapted?.env?.(s)),
    },
    extendEnv: true,
    input: '',
    reject: false,
    timeout: 120_000,
  });
  const expected = adapted?.exit ?? 0;
  const detail = () =>
    `$ ${command}\nexit ${r.exitCode}${r.timedOut ? ' (timed out)' : ''}\nstderr: ${r.stderr}\nstdout: ${String(r.stdout).slice(0, 2000)}` +
    `\nthe platform's last responses about the ids in this line:\n${responsesAbout(command, vars)}`;
  if (r.exitCode !== expected) expect(r.exitCode, detail()).toBe(expected);
  if (adapted?.stderr) expect(r.stderr, detail()).toMatch(adapted.stderr);
  if (adapted?.stdout) expect(String(r.stdout), detail()).toMatch(adapted.stdout);
  if (assignment && expected === 0) {
    const value = String(r.stdout).trim();
    expect(value, `${detail()}\n$(…) must print one value`).toMatch(/^\S+$/);
    s.vars[assignment[1]] = value;
  }
}

describe('README examples against a fresh facet serve', () => {
  it('finds the examples, and every ADAPTED entry still names a README line', () => {
    expect(examples.length).toBeGreaterThan(50);
    const lines = new Set(examples.map((e) => e.line));
    const stale = Object.keys(ADAPTED).filter((l) => !lines.has(l));
    expect(stale, 'ADAPTED entries whose line is no longer in the README').toEqual([]);
  });

  for (const ex of examples) {
    const adapted = ADAPTED[ex.line];
    const name = `[${ex.section}] ${ex.line}`;
    if (adapted?.skip) {
      it.skip(`${name} — not run: ${adapted.why}`, () => undefined);
      continue;
    }
    it(name, () => runExample(ex, adapted), 150_000);
  }
});
