import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startPlatform, tempDir, type Platform } from '../helpers/platform.js';
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.js';

/**
 * Issue 37 through the CLI against `facet serve`: answers quote the sources' commands and table
 * cells exactly, Chinese is found, and with an upstream model the same passages and the question
 * go into the model's prompt.
 */
const LTS = `# Pino Long Term Support

## Schedule

| Version | Release Date | End Of LTS Date | Node.js |
| :------ | :----------- | :-------------- | :------ |
| 9.x     | 2024-04-26   | TBD             | 18, 20, 22 |
| 8.x     | 2022-06-01   | 2024-10-26      | 14, 16, 18, 20 |

## Wildcards

The \`*\` character may be used as a wildcard. To run everything using this module simply use \`DEBUG=*\`.
`;

const RETURNS = `# 退货政策

商品签收后七天内可以申请退货。退款会在三个工作日内退回原支付方式。
`;

// Its options section names it most; its opening says what it is.
const KETTLEBREW = `# Kettlebrew

Kettlebrew is a command-line timer for brewing tea.

## Options

Kettlebrew reads \`KETTLEBREW_HOME\`. \`--kettlebrew-config\` sets the Kettlebrew config file, and Kettlebrew logs each Kettlebrew brew.
`;

let p: Platform;
let up: FakeUpstream;
let withUpstream: Platform;
let dir: string;
let livedoc: string;

beforeAll(async () => {
  dir = tempDir('content');
  up = await startFakeUpstream();
  [p, withUpstream] = await Promise.all([
    startPlatform(),
    startPlatform({
      args: ['--upstream-openai-base-url', up.openaiBase, '--default-model', 'aster-mini'],
      env: { FACET_UPSTREAM_OPENAI_KEY: 'sk-test' },
    }),
  ]);
  writeFileSync(path.join(dir, 'lts.md'), LTS);
  writeFileSync(path.join(dir, 'returns.md'), RETURNS);
  writeFileSync(path.join(dir, 'kettlebrew.md'), KETTLEBREW);
  livedoc = ok(await p.cli(['livedocs', 'create', 'Docs'])).stdout.trim();
  for (const f of ['lts.md', 'returns.md', 'kettlebrew.md'])
    ok(await p.cli(['livedocs', 'resources', 'upload-doc', livedoc, path.join(dir, f)]));
}, 120_000);

afterAll(async () => {
  p?.cleanup();
  withUpstream?.cleanup();
  await up?.close();
});

describe('answers from documents', () => {
  it('quote a command exactly, as code', async () => {
    const r = ok(await p.cli(['ask', 'How do I run everything with the wildcard?', '--livedoc', livedoc]));
    expect(r.stdout).toContain('DEBUG=*');
  });

  it('answer a table fact from its cell', async () => {
    const r = ok(await p.cli(['ask', 'When does LTS end for pino 8.x?', '--livedoc', livedoc]));
    expect(r.stdout).toContain('For 8.x, End Of LTS Date: 2024-10-26.');
  });

  it("answer 'What is X?' about a source named X with its opening", async () => {
    const r = ok(await p.cli(['ask', 'What is Kettlebrew?', '--livedoc', livedoc]));
    expect(r.stdout).toContain('Kettlebrew is a command-line timer for brewing tea.');
    expect(r.stdout).not.toContain('KETTLEBREW_HOME');
  });

  it('say when the sources do not cover a question', async () => {
    const r = ok(await p.cli(['ask', 'How long should sourdough bread proof?', '--livedoc', livedoc]));
    expect(r.stdout).toMatch(/Your sources do not cover this question\./);
  });

  it('find Chinese by its words: retrieve "退货" finds the document titled 退货政策', async () => {
    const r = ok(await p.cli(['livedocs', 'resources', 'retrieve', livedoc, '退货', '--json']));
    const hits = JSON.parse(r.stdout);
    const items = Array.isArray(hits) ? hits : (hits.items ?? hits.data);
    expect(JSON.stringify(items)).toContain('退货政策');
  });
});

describe('with an upstream model', () => {
  it('the model writes the answer from the same passages, and its prompt carries them and the question', async () => {
    const ld = ok(await withUpstream.cli(['livedocs', 'create', 'Docs'])).stdout.trim();
    ok(await withUpstream.cli(['livedocs', 'resources', 'upload-doc', ld, path.join(dir, 'lts.md')]));
    up.script({ text: 'Pino 8.x left LTS on 2024-10-26 [1].' });
    const before = up.received.length;
    const r = ok(await withUpstream.cli(['ask', 'When does LTS end for pino 8.x?', '--livedoc', ld]));
    expect(r.stdout).toContain('Pino 8.x left LTS on 2024-10-26 [1].');
    const sent = up.received.slice(before).find((x) => x.path.endsWith('/chat/completions'));
    expect(sent).toBeDefined();
    const prompt = JSON.stringify(sent!.body.messages);
    expect(prompt).toContain('When does LTS end for pino 8.x?');
    // The table reaches the model as a table: its header and the row with the date.
    expect(prompt).toContain('| Version | Release Date | End Of LTS Date | Node.js |');
    expect(prompt).toContain('| 8.x | 2022-06-01 | 2024-10-26 | 14, 16, 18, 20 |');
    expect(prompt).toMatch(/do not cover the question/);
  });
});
