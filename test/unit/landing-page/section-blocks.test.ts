import { describe, expect, it } from 'vitest';
import { localLandingPage } from '../../helpers/landing-docs.js';
import type { PagePassage } from '../../../src/server/engines/landing-page/text.js';

/**
 * Issue 45: a page shows what its sources hold as they hold it: a table a section is about as a
 * table (a sentence "the following table shows…" then has its table), a list as a list, and no
 * Markdown mark in the hero.
 */
const passage = (section: string, content: string): PagePassage => ({
  ref: 1,
  resourceId: 'res_1',
  title: 'tern',
  section,
  content,
  link: '',
});

const PASSAGES = [
  passage(
    'Supported versions',
    '## Supported versions\n\nThe following table shows the supported versions of tern.\n\n| Version | Supported | End of support |\n| --- | --- | --- |\n| 5.x | yes | 2027-04-30 |\n| 4.x | security fixes | 2026-10-31 |\n| 3.x | no | 2025-01-31 |\n',
  ),
  passage(
    'Features',
    '## Features\n\ntern is a small task runner for shell scripts.\n\n- Runs tasks in parallel across every core of the machine.\n- Caches the output of each task between runs.\n- Watches the files a task reads and runs it again when they change.\n',
  ),
];

const cardOf = (html: string, heading: string) =>
  (html.match(/<article class="card[^"]*">[\s\S]*?<\/article>/g) ?? []).find((c) => c.includes(`>${heading}</h3>`)) ??
  '';

describe('a landing page from sources with a table and a list', () => {
  it('shows the table with its header and rows, the list as a list, and no Markdown marks in the hero', async () => {
    const { html } = await localLandingPage('Make a landing page about `tern`, the **task runner**', PASSAGES);
    const versions = cardOf(html, 'Supported versions');
    expect(versions).toContain('<table>');
    expect(versions).toMatch(/<th scope="col">Version<\/th><th scope="col">Supported<\/th>/);
    expect(versions).toMatch(/<td>4\.x<\/td><td>security fixes<\/td><td>2026-10-31<\/td>/);
    expect(versions).toContain('class="cite"');
    // A table takes the grid's whole row: in a third of it, "2026-10-31" broke at its hyphens.
    expect(versions).toMatch(/^<article class="card wide">/);

    const features = cardOf(html, 'Features');
    expect(features).toMatch(/^<article class="card">/);
    const items = [...features.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => m[1].replace(/<sup>[\s\S]*?<\/sup>/g, ''));
    expect(items).toEqual([
      'Runs tasks in parallel across every core of the machine.',
      'Caches the output of each task between runs.',
      'Watches the files a task reads and runs it again when they change.',
    ]);

    const hero = /<header class="hero">[\s\S]*?<\/header>/.exec(html)![0].replace(/<[^>]+>/g, ' ');
    expect(hero).not.toMatch(/\*\*|`/);
  });
});

describe('figures written as `name: value` lines in a code block', () => {
  const BENCH = passage(
    'Benchmarks',
    "## Benchmarks\n\nPino is compared with other loggers logging `'hello world'`.\n\n```\nBASIC benchmark averages\nBunyan average: 377.434ms\nWinston average: 270.249ms\nPino average: 114.801ms\nPino_min average: 70.968ms\n```\n",
  );

  it('become a name | value table on the page, values with their unit, never code', async () => {
    const { html } = await localLandingPage('Make a landing page about pino benchmarks', [BENCH]);
    const card = cardOf(html, 'Benchmarks');
    expect(card).toContain('<table>');
    expect(card).toMatch(/<th scope="col">BASIC benchmark averages<\/th><th scope="col">Value<\/th>/);
    expect(card).toMatch(/<td>Pino average<\/td><td>114\.801ms<\/td>/);
    // An underscore in a name is a character, not emphasis.
    expect(card).toMatch(/<td>Pino_min average<\/td><td>70\.968ms<\/td>/);
    expect(card).not.toMatch(/<code>[^<]*average:/);
  });

  it('stay code when the block is code that sets a few values', async () => {
    const code = passage(
      'Usage',
      '## Usage\n\nSet the levels of the logger.\n\n```js\nconst levels = {\n  error: 0,\n  warn: 1,\n  info: 2,\n};\n```\n',
    );
    const { html } = await localLandingPage('Make a landing page about logger levels', [code]);
    expect(cardOf(html, 'Usage')).not.toContain('<table>');
  });
});
