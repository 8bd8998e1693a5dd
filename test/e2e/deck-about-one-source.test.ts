import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { okJson, startPlatform, tempDir, type Platform } from '../helpers/platform.js';
import { slideXmls } from '../helpers/deck-check.js';

/**
 * A deck about one of the documents of a LiveDoc (issue 37), over real documents nobody here wrote
 * (bench/content/docs): pino's LTS page (HTML), pino's benchmarks, debug's and Commander's
 * READMEs. "Pino long term support and benchmarks" takes its slides from pino's two documents,
 * never from debug's colours or Commander's support policy.
 */
const DOCS = path.resolve(import.meta.dirname, '../../bench/content/docs');
let p: Platform;
let ld: string;

beforeAll(async () => {
  p = await startPlatform();
  ld = okJson(await p.cli(['livedocs', 'create', 'Loggers and tools', '--json'])).short_id;
  for (const file of ['pino-lts.html', 'pino-benchmarks.md', 'debug-readme.md', 'commander-readme.md'])
    okJson(await p.cli(['livedocs', 'resources', 'upload-doc', ld, path.join(DOCS, file), '--json']));
}, 120_000);
afterAll(() => p?.cleanup());

it('takes no slide from a document that never speaks of the subject', async () => {
  const file = path.join(tempDir('deck-about'), 'pino.pptx');
  const r = okJson(
    await p.cli(
      [
        'slides',
        'create',
        'Pino long term support, supported Node.js versions and benchmarks',
        '--livedoc',
        ld,
        '--wait',
        '--interval',
        '2',
        '--out',
        file,
        '--json',
      ],
      { timeout: 240_000 },
    ),
  );
  expect(r.task_status).toBe('COMPLETED');
  const { slides } = await slideXmls(readFileSync(file));
  const text = slides.map((xml) => (xml.match(/<a:t>([^<]*)<\/a:t>/g) ?? []).join(' ')).join('\n');
  expect(text).toMatch(/Long Term Support/);
  expect(text).toMatch(/benchmark/i);
  for (const other of [/supports-color/, /\bdebug\b/, /Commander/]) expect(text).not.toMatch(other);
}, 300_000);
