import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractHtml } from '../../../../src/server/engines/extract/html.js';
import { extractiveOutline } from '../../../../src/server/engines/outline-writer.js';
import { parseOutline } from '../../../../src/server/engines/mindmap/tree.js';

const labels = (md: string) =>
  md
    .split('\n')
    .map((l) => l.replace(/^#+\s+|^\s*-\s+/, '').trim())
    .filter(Boolean);

describe('the local mindmap outline says what the sources say', () => {
  const passages = [
    {
      title: 'Kettles',
      content:
        'Every batch is 12 kg of recycled iron, poured into sand moulds and finished with a flaxseed-oil seasoning.\n\n## Warranty\n\nEvery kettle carries a 25-year warranty.\n\n© 2026 Alder Ltd. All rights reserved.',
    },
    {
      title: 'Returns',
      content:
        'Returns within 14 days of delivery are accepted for any reason, as long as the kettle is unused and in its original box. To start a return, email returns@alder.example with your order number.',
    },
    {
      title: 'Exchanges',
      content:
        'If the new kettle costs more than the old one you bought, you pay the difference; if it costs less, the difference is refunded.',
    },
  ];
  it('keeps a fact whole: no "X is a, b and c" list made of one sentence, no "If …" clause cut from its consequence', () => {
    const md = extractiveOutline({ query: 'kettles and exchanges', passages });
    expect(md).not.toMatch(/^- Every batch$/m);
    expect(md).not.toMatch(/^- If the new kettle costs more than the old one you bought$/m);
    expect(md).toMatch(/If the new kettle costs more than the old one you bought, you pay the difference/);
    expect(md).not.toMatch(/All rights reserved/);
    expect(md).not.toMatch(/^\s+- accepted for any reason$/m);
    expect(md).toContain('returns@alder.example');
  });
  it('a condition after an opening phrase is not cut from its consequence ("For example, if …")', () => {
    const md = extractiveOutline({
      query: 'file names',
      passages: [
        {
          title: 'Names',
          content:
            'If the compressed file name is too long for its file system, gzip truncates it. For example, if file names are limited to 14 characters, gzip.msdos.exe is compressed to gzi.msd.exe.Z and the rest of its name is dropped.',
        },
      ],
    });
    expect(md).not.toMatch(/^- For example, if file names are limited to 14 characters$/m);
  });
  // tee(1): "The default operation when --output-error is not specified" is a subject whose verb the
  // comma cut off, and "… or available locally via" a preposition without its object.
  it('a clause is not cut before its own verb, nor after a preposition', () => {
    const md = extractiveOutline({
      query: 'tee output errors',
      passages: [
        {
          title: 'TEE',
          content:
            "## DESCRIPTION\n\nThe default MODE for the **-p** option is 'warn-nopipe'. The default operation when **--output-error** is not specified, is to exit immediately on error writing to a pipe, and diagnose errors writing to non pipe outputs.\n\n## REPORTING BUGS\n\nFull documentation <https://www.gnu.org/software/coreutils/tee> or available locally via: info '(coreutils) tee invocation'",
        },
      ],
    });
    expect(md).not.toMatch(/^\s*- The default operation when \*\*--output-error\*\* is not specified$/m);
    expect(md).not.toMatch(/available locally via$/m);
  });
  // Every man page has a DESCRIPTION: merged by heading, "tee, tail and uniq options" drew tee's
  // options alone under one DESCRIPTION, and "tail" and "tee" drew their NAME lines.
  it("sources sharing a heading are a branch each, and a topic naming a source draws that source's options", () => {
    const page = (name: string) =>
      extractHtml(readFileSync(path.resolve(import.meta.dirname, `../../../fixtures/real-docs/${name}.html`), 'utf8'))
        .markdown;
    const passages = ['tee', 'tail', 'uniq'].map((n) => ({ title: n.toUpperCase(), content: page(n) }));
    const md = extractiveOutline({ query: 'tee, tail and uniq options', passages });
    const branches = md.split('\n## ').slice(1);
    expect(branches.slice(0, 3).map((b) => b.split('\n')[0])).toEqual([
      'DESCRIPTION (TEE)',
      'DESCRIPTION (TAIL)',
      'DESCRIPTION (UNIQ)',
    ]);
    expect(branches[0]).toContain('**--append**');
    expect(branches[0]).not.toContain('--follow');
    expect(branches[1]).toContain('**--follow');
    expect(branches[2]).toContain('**--ignore-case**');
    // A description cut by the source's line end ("…as the file grows;") ends without its semicolon.
    expect(md).not.toMatch(/;$/m);
  });
  it('a phrase opening with a preposition is not cut from the clause it qualifies', () => {
    const md = extractiveOutline({
      query: 'tail follow',
      passages: [
        {
          title: 'TAIL',
          content:
            "With **--follow** (**-f**), tail defaults to following the file descriptor, which means that even if a tail'ed file is renamed, tail will continue to track its end.",
        },
      ],
    });
    expect(md).not.toMatch(/^\s*- With \*\*--follow\*\* \(\*\*-f\*\*\)$/m);
  });
  it("a man page's option is one point, its term with its description, never the term alone", () => {
    const md = extractiveOutline({
      query: 'gzip options',
      passages: [
        {
          title: 'gzip',
          content:
            '## OPTIONS\n\n**-c --stdout --to-stdout**\n\nWrite output on standard output; keep original files unchanged. If there are several input files, the output consists of a sequence of independently compressed members.\n\n**-d --decompress --uncompress**\n\nDecompress.\n\n**-f --force**\n\nForce compression or decompression even if the file has multiple links.\n\n## DESCRIPTION\n\nBy default, gzip keeps the original file name and timestamp in the compressed file. These are used when decompressing the file with the -N option.',
        },
      ],
    });
    expect(md).toContain('**-c --stdout --to-stdout** — Write output on standard output');
    expect(md).not.toMatch(/^\s*- (?:\*\*)?-c --stdout --to-stdout(?:\*\*)?$/m);
    expect(md).not.toMatch(/^\s*- (?:\*\*)?-d --decompress --uncompress(?:\*\*)?$/m);
    // A sentence pointing back at the one before it is no point: alone, "These" names nothing.
    expect(md).toContain('By default, gzip keeps the original file name and timestamp in the compressed file');
    expect(md).not.toContain('These are used when decompressing');
  });
  it('branches on the query topics in order, then the sections; no label twice', () => {
    const md = extractiveOutline({
      query: 'Make a mind map about the warranty and exchanges',
      passages: [...passages, { title: 'Warranty', content: 'Every kettle carries a 25-year warranty.' }],
    });
    const branches = md
      .split('\n')
      .filter((l) => l.startsWith('## '))
      .map((l) => l.slice(3));
    expect(branches.slice(0, 2)).toEqual(['Warranty', 'Exchanges']);
    expect(new Set(labels(md).map((l) => l.toLowerCase())).size).toBe(labels(md).length);
  });
  it('a section headed like the map itself gives its points as branches, not nothing', () => {
    const md = extractiveOutline({
      query: 'storage',
      passages: [
        {
          title: 'Storage',
          content:
            'Batteries smooth the daily peak of solar output. Common storage options are lithium-ion batteries, pumped hydro, flow batteries and green hydrogen.',
        },
      ],
    });
    expect(md).toMatch(/^## Batteries smooth the daily peak of solar output$/m);
    expect(md).toMatch(/^- pumped hydro$/m);
  });
  // quick-lru's maxAge: "Type: number\ Default: Infinity" was drawn with the hard break's backslash.
  it('a hard break inside a point is a space in its label', () => {
    const md = extractiveOutline({
      query: 'quick-lru options',
      passages: [
        {
          title: 'quick-lru',
          content:
            '#### maxAge\n\nType: `number`\\\nDefault: `Infinity`\n\nThe maximum number of milliseconds an item should remain in the cache.',
        },
      ],
    });
    expect(md).toContain('Type: `number` Default: `Infinity`');
    expect(md).not.toMatch(/\\\s/);
  });

  it("a model's outline with a repeated label keeps it once, the repeat's children moved up", () => {
    const tree = parseOutline('# Kettles\n## Care\n- Dry it\n## Warranty\n- Care\n  - Oil it monthly\n- Dry it', 'x');
    expect(JSON.stringify(tree)).toBe(
      JSON.stringify({
        text: 'Kettles',
        children: [
          { text: 'Care', children: [{ text: 'Dry it', children: [] }] },
          { text: 'Warranty', children: [{ text: 'Oil it monthly', children: [] }] },
        ],
      }),
    );
  });
});
