import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sentences } from '../../../src/server/text/segment.js';
import { symbolsOf, termsOf } from '../../../src/server/text/terms.js';
import { cellOf, documentUnits, rowCells } from '../../../src/server/text/units.js';
import { htmlToMarkdown } from '../../../src/server/engines/extract/html.js';

// Words that Markdown reads as words, never as markup.
const word = fc.stringMatching(/^[a-z][a-z0-9]{1,8}$/);
const label = fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));
const cjk = fc
  .array(fc.constantFrom(...'资料安装版本体积准确率转换字符数据文件默认选项'.split('')), {
    minLength: 2,
    maxLength: 12,
  })
  .map((c) => c.join(''));

describe('document units on generated documents', () => {
  it('every table cell is addressable by its row key and column', () => {
    const table = fc.uniqueArray(label, { minLength: 2, maxLength: 5, selector: (s) => s }).chain((header) =>
      fc.record({
        header: fc.constant(header),
        rows: fc.uniqueArray(fc.array(label, { minLength: header.length, maxLength: header.length }), {
          minLength: 1,
          maxLength: 6,
          selector: (r) => r[0],
        }),
      }),
    );
    fc.assert(
      fc.property(table, ({ header, rows }) => {
        const md = [
          '# Figures',
          '',
          'The figures below:',
          '',
          `| ${header.join(' | ')} |`,
          `| ${header.map(() => '---').join(' | ')} |`,
          ...rows.map((r) => `| ${r.join(' | ')} |`),
        ].join('\n');
        const units = documentUnits(md).filter((u) => u.kind === 'row');
        expect(units).toHaveLength(rows.length);
        rows.forEach((r, i) => {
          const u = units.find((x) => x.rowKey === r[0])!;
          expect(u.headings).toEqual(['Figures']);
          expect(u.leadIn).toBe('The figures below:');
          header.forEach((h, c) => expect(cellOf(u, h)?.text).toBe(r[c]));
          expect(rowCells(u).map((x) => x.address)).toContain(`${header[header.length - 1]} of ${r[0]}`);
          expect(units.indexOf(u)).toBe(i);
        });
      }),
      { numRuns: 30 },
    );
  });

  it('every definition term stays with its description (man-page options and exit codes)', () => {
    const entry = fc.record({
      flag: fc.constantFrom('-r', '-x', '--scale-to', '-#', '3', '0'),
      arg: fc.option(word, { nil: undefined }),
      description: fc.array(label, { minLength: 1, maxLength: 3 }).map((s) => s.map((x) => `${x} text.`).join(' ')),
    });
    fc.assert(
      fc.property(fc.uniqueArray(entry, { minLength: 1, maxLength: 6, selector: (e) => e.flag }), (entries) => {
        const md = [
          '## OPTIONS',
          '',
          ...entries.flatMap((e) => [
            `**${e.flag.replace(/^-/, '\\-')}**${e.arg ? ` _${e.arg}_` : ''}`,
            '',
            e.description,
            '',
          ]),
        ].join('\n');
        const defs = documentUnits(md).filter((u) => u.kind === 'definition');
        expect(defs.map((d) => d.term)).toEqual(entries.map((e) => (e.arg ? `${e.flag} ${e.arg}` : e.flag)));
        defs.forEach((d, i) => {
          expect(d.description).toBe(entries[i].description);
          expect(d.headings).toEqual(['OPTIONS']);
        });
        // The description's sentences know their term.
        const said = documentUnits(md).filter((u) => u.kind === 'sentence');
        for (const s of said) expect(entries.map((e) => (e.arg ? `${e.flag} ${e.arg}` : e.flag))).toContain(s.term);
      }),
      { numRuns: 30 },
    );
  });

  it("a command's help text in a code block gives each option as a definition, the block staying code (generated)", () => {
    const entry = fc.record({
      flag: fc.constantFrom('-r --range', '-i', '--preid', '-n', '--rtl', '-c --coerce'),
      arg: fc.option(fc.constantFrom('<range>', '<0|1|false>', '[<level>]'), { nil: undefined }),
      lines: fc.array(label, { minLength: 1, maxLength: 3 }),
      indent: fc.integer({ min: 2, max: 8 }),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(entry, { minLength: 2, maxLength: 6, selector: (e) => e.flag }),
        fc.integer({ min: 0, max: 2 }),
        (entries, base) => {
          const pad = ' '.repeat(base);
          const term = (e: (typeof entries)[number]) => (e.arg ? `${e.flag} ${e.arg}` : e.flag);
          const help = entries.flatMap((e) => [
            `${pad}${term(e)}`,
            ...e.lines.map((l) => `${pad}${' '.repeat(e.indent)}${l}`),
            '',
          ]);
          const md = ['As a command-line utility:', '', '```', '$ tool -h', '', 'Options:', ...help, '```'].join('\n');
          const units = documentUnits(md);
          const defs = units.filter((u) => u.kind === 'definition');
          expect(defs.map((d) => d.term)).toEqual(entries.map(term));
          defs.forEach((d, i) => {
            expect(d.description).toBe(entries[i].lines.join(' '));
            expect(d.termMarkdown).toBe(`\`${term(entries[i])}\``);
            expect(d.leadIn).toBe('As a command-line utility:');
          });
          // The block is still quoted as code, whole.
          expect(units.filter((u) => u.kind === 'code')).toHaveLength(1);
        },
      ),
      { numRuns: 40 },
    );
  });

  // Session 86: rimraf's help text sets each option beside its description, in columns; the block
  // was read as prose and quoted as one run-on sentence.
  it('a help text whose options sit beside their descriptions, in columns, gives each as a definition (generated)', () => {
    const entry = fc.record({
      flag: fc.constantFrom('-i --interactive', '-g --glob', '--preserve-root', '-v', '--impl', '-V --no-verbose'),
      arg: fc.option(fc.constantFrom('=<type>', ' <n>', '=[level]'), { nil: undefined }),
      lines: fc.array(label, { minLength: 1, maxLength: 3 }),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(entry, { minLength: 2, maxLength: 6, selector: (e) => e.flag }),
        fc.integer({ min: 2, max: 6 }),
        (entries, gap) => {
          const term = (e: (typeof entries)[number]) => `${e.flag}${e.arg ?? ''}`;
          const column = 2 + Math.max(...entries.map((e) => term(e).length)) + gap;
          const help = entries.flatMap((e) => [
            `  ${term(e).padEnd(column - 2)}${e.lines[0]}`,
            ...e.lines.slice(1).map((l) => `${' '.repeat(column)}${l}`),
          ]);
          const md = [
            '```',
            'Usage: tool <path> [<path> ...]',
            'Deletes them, recursively.',
            '',
            'Options:',
            ...help,
            '```',
          ].join('\n');
          const units = documentUnits(md);
          const defs = units.filter((u) => u.kind === 'definition');
          expect(defs.map((d) => [d.term, d.description])).toEqual(entries.map((e) => [term(e), e.lines.join(' ')]));
          expect(units.filter((u) => u.kind === 'code')).toHaveLength(1);
          expect(units.filter((u) => u.kind === 'sentence' && !u.term)).toEqual([]);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('a code block with one option, or options without descriptions, gives no definitions', () => {
    const one = ['```', 'Usage: tool [options]', '-v', '    print the version', '```'].join('\n');
    const bare = ['```', 'tool -a', 'tool -b --long', 'tool -c', '```'].join('\n');
    for (const md of [one, bare]) expect(documentUnits(md).filter((u) => u.kind === 'definition')).toEqual([]);
  });

  it('a run of definitions is led into by the paragraph before its first entry (generated)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom('a', 't', 'n', 'ln', 'rn', 'rz'), { minLength: 1, maxLength: 5 }),
        fc.array(label, { minLength: 5, maxLength: 5 }),
        word,
        (terms, descriptions, kind) => {
          const lead = `${kind.toUpperCase()} is one of:`;
          const md = [lead, '', ...terms.flatMap((t, i) => [`**${t}**`, '', descriptions[i], ''])].join('\n');
          const defs = documentUnits(md).filter((u) => u.kind === 'definition');
          expect(defs.map((d) => d.term)).toEqual(terms);
          for (const d of defs) expect(d.leadIn).toBe(lead);
        },
      ),
      { numRuns: 30 },
    );
  });

  it("the paragraphs after a run of one-paragraph entries are the section's, not its last entry's (generated)", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom('-a', '-b', '-c', '-d', '--help', '--version'), { minLength: 2, maxLength: 5 }),
        fc.array(
          label.map((x) => `${x} follows the options.`),
          { minLength: 1, maxLength: 2 },
        ),
        (flags, after) => {
          const md = [
            '## DESCRIPTION',
            '',
            ...flags.flatMap((f) => [`**${f.replace(/^-/, '\\-')}**`, '', `what ${f} does`, '']),
            ...after.flatMap((p) => [p, '']),
          ].join('\n');
          const units = documentUnits(md);
          const defs = units.filter((u) => u.kind === 'definition');
          expect(defs.map((d) => d.description)).toEqual(flags.map((f) => `what ${f} does`));
          for (const p of after) expect(units.find((u) => u.text === p)?.term).toBeUndefined();
        },
      ),
      { numRuns: 30 },
    );
  });

  it('a term written as groff writes it is a term: a flag with its long form (on one line or each on its own), an argument after =, a choice, a bare exit code', () => {
    const entry = fc.record({
      letter: fc.constantFrom(...'abcdkSsZz'.split('')),
      long: word,
      form: fc.constantFrom('pair', 'lines', 'equals', 'bare', 'bracket', 'choice'),
      choice: fc.uniqueArray(word, { minLength: 2, maxLength: 3 }),
      description: label.map((x) => `${x} text.`),
    });
    fc.assert(
      fc.property(fc.uniqueArray(entry, { minLength: 1, maxLength: 6, selector: (e) => e.letter }), (entries) => {
        const terms = entries.map((e, i) =>
          e.form === 'pair'
            ? { md: `**-${e.letter}**, **--${e.long}**`, text: `-${e.letter}, --${e.long}` }
            : e.form === 'lines'
              ? // wget's `-c` over `--continue`: each name its own paragraph, one description.
                { md: `**\\-${e.letter}**\n\n**\\--${e.long}**=_n_`, text: `-${e.letter}, --${e.long}=n` }
              : e.form === 'equals'
                ? { md: `**--${e.long}**=_${e.letter}_`, text: `--${e.long}=${e.letter}` }
                : e.form === 'bracket'
                  ? // tail's `-n, --lines=[+]NUM`: the argument unmarked beside its italic bracket.
                    { md: `**-${e.letter}**, **--${e.long}**=_\\[_+]NUM`, text: `-${e.letter}, --${e.long}=[+]NUM` }
                  : e.form === 'choice'
                    ? // tail's `-f, --follow[={name|descriptor}]`: a choice of words, unmarked, in braces.
                      {
                        md: `**-${e.letter}**, **--${e.long}\\[=**{${e.choice.join('|')}}\\]`,
                        text: `-${e.letter}, --${e.long}[={${e.choice.join('|')}}]`,
                      }
                    : { md: String(i), text: String(i) },
        );
        const md = ['## OPTIONS', '', ...entries.flatMap((e, i) => [terms[i].md, '', e.description, ''])].join('\n');
        const defs = documentUnits(md).filter((u) => u.kind === 'definition');
        expect(defs.map((d) => d.term)).toEqual(terms.map((t) => t.text));
        defs.forEach((d, i) => expect(d.description).toBe(entries[i].description));
      }),
      { numRuns: 30 },
    );
  });

  it("a code-like token alone above its description is a term (date's format table: `%s` over its meaning)", () => {
    const token = fc.oneof(
      fc.constantFrom(...'aAbBdDHIjmMsSuVwyYZ'.split('')).map((c) => `%${c}`),
      word.map((w) => `${w}()`),
    );
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ token, description: label.map((x) => `${x} text`) }), {
          minLength: 2,
          maxLength: 6,
          selector: (e) => e.token,
        }),
        (entries) => {
          const md = ['## FORMAT', '', ...entries.flatMap((e) => [e.token, '', e.description, ''])].join('\n');
          const defs = documentUnits(md).filter((u) => u.kind === 'definition');
          expect(defs.map((d) => d.term)).toEqual(entries.map((e) => e.token));
          defs.forEach((d, i) => expect(d.description).toBe(entries[i].description));
        },
      ),
      { numRuns: 30 },
    );
  });

  it('a code line under a comment has all its lines as its caption, up to a blank line', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            comment: fc.array(label, { minLength: 1, maxLength: 3 }),
            spaced: fc.boolean(),
            calls: fc.array(word, { minLength: 1, maxLength: 3 }),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        (runs) => {
          // A comment of several lines, its paragraphs apart by an empty `//` line or not (lru-cache's README).
          const code = runs
            .map((r) =>
              [
                r.comment.map((c) => `// ${c}`).join(r.spaced ? '\n//\n' : '\n'),
                ...r.calls.map((c, i) => `${c}(${i});`),
              ].join('\n'),
            )
            .join('\n\n');
          const lines = documentUnits(['## Use', '', '```js', code, '```', ''].join('\n')).filter(
            (u) => u.kind === 'codeLine',
          );
          for (const r of runs)
            for (const [i, c] of r.calls.entries())
              expect(lines.find((l) => l.text === `${c}(${i});`)?.caption).toBe(
                runs.find((x) => x.calls.some((y, j) => `${y}(${j});` === `${c}(${i});`))!.comment.join(' '),
              );
        },
      ),
      { numRuns: 30 },
    );
  });

  it('a comment right after a line of code says what that line gives, and captions nothing below it', () => {
    const md = [
      '```js',
      'bytes.format(1024);',
      "// output: '1KB'",
      'bytes.format(1000);',
      "// output: '1000B'",
      '```',
      '',
    ].join('\n');
    const lines = documentUnits(md).filter((u) => u.kind === 'codeLine');
    expect(lines.find((l) => l.text === 'bytes.format(1000);')?.caption).toBeUndefined();
  });

  it('a plain-text document kept in a fence is prose: sentences across its wrapped lines, its indented code still code', () => {
    const faq = [
      '```',
      '1.2. Where does the name "Valgrind" come from? ',
      'From Nordic mythology. Originally the project was named ',
      'Heimdall, after the watchman of the Nordic gods. ',
      '------------------------------------------------------------',
      '',
      '    int main(void) { return 0; }',
      '    static[5] = 0;',
      '',
      'Keeping with the Nordic theme, Valgrind was chosen as the name. ',
      '```',
    ].join('\n');
    const units = documentUnits(faq);
    expect(units.filter((u) => u.kind === 'sentence').map((u) => u.text)).toEqual([
      '1.2. Where does the name "Valgrind" come from?',
      'From Nordic mythology.',
      'Originally the project was named Heimdall, after the watchman of the Nordic gods.',
      'Keeping with the Nordic theme, Valgrind was chosen as the name.',
    ]);
    expect(units.filter((u) => u.kind === 'codeLine').map((u) => u.text.trim())).toEqual([
      'int main(void) { return 0; }',
      'static[5] = 0;',
    ]);
    // A real code block without a language stays code.
    const code =
      '```\nnpm test # Runs all tests\nnpm run test:unit # Runs all unit tests with coverage\nnpm run lint\n```';
    expect(documentUnits(code).some((u) => u.kind === 'code')).toBe(true);
  });

  it('nested list items keep their lead-in: the paragraph before the list, or their parent item', () => {
    // A parent may end in a colon ("`origin`: … Possible values:"): its siblings are still the list's.
    const top = fc.tuple(label, fc.boolean()).map(([t, colon]) => (colon ? `${t}:` : t));
    const tree = fc.array(fc.record({ top, kids: fc.array(label, { minLength: 1, maxLength: 3 }) }), {
      minLength: 1,
      maxLength: 4,
    });
    fc.assert(
      fc.property(label, tree, (intro, items) => {
        const md = [`${intro}:`, '', ...items.flatMap((i) => [`- ${i.top}`, ...i.kids.map((k) => `  - ${k}`)])].join(
          '\n',
        );
        const units = documentUnits(md).filter((u) => u.kind === 'item');
        const expected = items.flatMap((i) => [
          { text: i.top, leadIn: `${intro}:`, depth: 1 },
          ...i.kids.map((k) => ({ text: k, leadIn: i.top, depth: 2 })),
        ]);
        expect(units.map((u) => ({ text: u.text, leadIn: u.leadIn, depth: u.depth }))).toEqual(expected);
      }),
      { numRuns: 30 },
    );
  });

  it('a nested list printed flat leads on by its colon: the items after one ending in ":" are its (generated)', () => {
    const tree = fc.array(fc.record({ top: label, kids: fc.array(label, { minLength: 1, maxLength: 3 }) }), {
      minLength: 1,
      maxLength: 4,
    });
    fc.assert(
      fc.property(label, tree, (intro, items) => {
        // busboy's "The constructor can throw errors:" and its errors, as a PDF prints them: one level.
        const md = [`${intro}:`, '', ...items.flatMap((i) => [`- ${i.top}:`, ...i.kids.map((k) => `- ${k}`)])].join(
          '\n',
        );
        const units = documentUnits(md).filter((u) => u.kind === 'item');
        const expected = items.flatMap((i, n) => [
          { text: `${i.top}:`, leadIn: n === 0 ? `${intro}:` : `${items[n - 1].top}:` },
          ...i.kids.map((k) => ({ text: k, leadIn: `${i.top}:` })),
        ]);
        expect(units.map((u) => ({ text: u.text, leadIn: u.leadIn }))).toEqual(expected);
      }),
      { numRuns: 30 },
    );
  });

  // opencc-js's locales and pinyin-pro's packages, in Chinese: "`hkp`：且转换香港词汇" had no term, so
  // a table row naming hkp in a code span outranked the item saying what hkp is.
  it('a list item "`name`：what it is" has its term, after a full-width colon and before code of its own', () => {
    const units = documentUnits(
      [
        '- `hkp`：且转换香港词汇（例如：鼠标 -> 滑鼠）',
        '- `packages/data`：`@pinyin-pro/data` 扩展字典包',
        '- `level`: `info` or above is logged',
        '- `lone`：',
      ].join('\n'),
    ).filter((u) => u.kind === 'item');
    expect(units.map((u) => [u.term, u.description])).toEqual([
      ['hkp', '且转换香港词汇（例如：鼠标 -> 滑鼠）'],
      ['packages/data', '@pinyin-pro/data 扩展字典包'],
      ['level', 'info or above is logged'],
      [undefined, undefined],
    ]);
    // A setting's line with its type alone is said with the items under it, not as a definition.
    expect(documentUnits('- `disabled`: `boolean`\n  - `true` turns it off').some((u) => u.term === 'disabled')).toBe(
      false,
    );
  });

  it('a list item opening with a quoted name that it says the meaning of has that name as its term', () => {
    const verb = fc.constantFrom('means', 'is', 'are', 'refers to', 'stands for', '-', ':');
    const quote = fc.constantFrom(['"', '"'], ['“', '”'], ["'", "'"], ['「', '」']);
    fc.assert(
      fc.property(fc.array(fc.tuple(label, quote, verb, label), { minLength: 1, maxLength: 5 }), (items) => {
        const md = items.map(([name, [o, c], v, rest]) => `- ${o}${name}${c} ${v} ${rest}.`).join('\n');
        const units = documentUnits(md).filter((u) => u.kind === 'item');
        expect(units.map((u) => u.term)).toEqual(items.map(([name]) => name));
        // Said as written: the item's text is whole.
        expect(units.map((u) => u.markdown)).toEqual(md.split('\n').map((l) => l.slice(2)));
      }),
      { numRuns: 40 },
    );
    // A quote that is not a name the item defines leaves the item without a term.
    expect(documentUnits('- "Hello" was the first word it printed.')[0].term).toBeUndefined();
    // Without bold or quotes (a PDF's list), a name of a few words before a spaced dash is the term.
    expect(documentUnits('- Accurate matching - Using wildcards.\n- Fast - Loads in 2ms.').map((u) => u.term)).toEqual([
      'Accurate matching',
      'Fast',
    ]);
    expect(documentUnits('- it is fast - and small.\n- One two three four five - six.').map((u) => u.term)).toEqual([
      undefined,
      undefined,
    ]);
    // A code span then a capitalised sentence (rimraf's options) names what the item describes;
    // one going on in lower case is a sentence about it.
    const items = documentUnits(
      '- `glob` Boolean flag to treat path as glob pattern.\n- `filter` Method that returns a boolean.\n- `tmp` is a folder.',
    ).filter((u) => u.kind === 'item');
    expect(items.map((u) => [u.term, u.description])).toEqual([
      ['glob', 'Boolean flag to treat path as glob pattern.'],
      ['filter', 'Method that returns a boolean.'],
      [undefined, undefined],
    ]);
  });

  it('code blocks are a unit and a unit per line, verbatim (every space kept)', () => {
    const line = fc.stringMatching(/^[a-z=<>^.0-9 -]{1,30}$/).filter((l) => l.trim().length > 0);
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), (lines) => {
        const code = lines.join('\n');
        const units = documentUnits(`Run this:\n\n\`\`\`sh\n${code}\n\`\`\``);
        const block = units.find((u) => u.kind === 'code')!;
        expect(block.text).toBe(code);
        expect(block.leadIn).toBe('Run this:');
        const own = units.filter((u) => u.kind === 'codeLine').map((u) => u.text);
        expect(own).toEqual(lines.filter((l) => l.trim()));
      }),
      { numRuns: 30 },
    );
  });

  it('units cover the text: every word of the document is in some unit, CJK included', () => {
    const para = fc.oneof(
      fc.array(label, { minLength: 1, maxLength: 4 }).map((s) => s.map((x) => `${x}.`).join(' ')),
      fc.array(cjk, { minLength: 1, maxLength: 3 }).map((s) => s.map((x) => `${x}。`).join('')),
    );
    fc.assert(
      fc.property(fc.array(para, { minLength: 1, maxLength: 5 }), fc.array(label, { maxLength: 4 }), (paras, items) => {
        const md = [...paras, items.map((i) => `- ${i}`).join('\n')].join('\n\n');
        const all = documentUnits(md)
          .map((u) => u.text)
          .join(' ');
        for (const w of md.match(/[\p{L}\p{N}]+/gu) ?? []) expect(all).toContain(w);
      }),
      { numRuns: 30 },
    );
  });

  it('sentence splitting never splits an initial or an abbreviation', () => {
    const name = fc
      .tuple(word, fc.constantFrom(...'ABCDEFGHJKLMNPRSTW'.split('')), word)
      .map(([a, i, b]) => `${a[0].toUpperCase()}${a.slice(1)} ${i}. ${b[0].toUpperCase()}${b.slice(1)}`);
    fc.assert(
      fc.property(name, fc.constantFrom('e.g.', 'i.e.', 'vs.', 'Dr.'), (n, abbr) => {
        const text = `This was written by ${n} in a year. Use one, ${abbr} Another thing here. Then stop.`;
        const got = sentences(text);
        expect(got).toHaveLength(3);
        expect(got[0]).toContain(n);
      }),
    );
    expect(sentences('Copyright Philip A. Nelson. All rights reserved.')).toEqual([
      'Copyright Philip A. Nelson.',
      'All rights reserved.',
    ]);
  });

  // WenQuanYi's README: "founded by Qianqian Fang [6] in Oct. 2004." was cut after "Oct.".
  it('a month written short stops before its number, not there', () => {
    expect(sentences('It was founded in Oct. 2004. Fonts came on Dec. 9, 2008, and Jan. 16.')).toEqual([
      'It was founded in Oct. 2004.',
      'Fonts came on Dec. 9, 2008, and Jan. 16.',
    ]);
  });

  // Unicode's rules never cut before a lower-case word; technical text opens sentences on names.
  it('a sentence may open on a word in lower case, but not after "e. g." or "etc."', () => {
    expect(sentences('SSL will be enabled. postgresql-common makes use of snakeoil.')).toEqual([
      'SSL will be enabled.',
      'postgresql-common makes use of snakeoil.',
    ]);
    expect(sentences('E. g. if you install it, settings (SSL, etc.) and files differ... and more.')).toHaveLength(1);
  });

  // flock(1) as groff sets it: "Some file systems (e. g. NFS and CIFS) have …" was cut after "e. g.".
  it('"e. g." and "i. e." spaced as groff sets them cut no sentence', () => {
    expect(sentences('Some file systems (e. g. NFS and CIFS) differ. Others, i. e. FAT, do not.')).toEqual([
      'Some file systems (e. g. NFS and CIFS) differ.',
      'Others, i. e. FAT, do not.',
    ]);
  });

  it('generated sentences opening in lower case are each one sentence; "e.g." and "etc." inside cut none', () => {
    // Words of two letters or more: a letter alone before a full stop reads as an initial.
    const long = fc.stringMatching(/^[a-z][a-z0-9]{2,8}$/);
    const sentence = fc
      .tuple(fc.array(long, { minLength: 3, maxLength: 6 }), fc.constantFrom('', ' e.g. ', ' etc. and '))
      .map(([ws, inside]) => `${ws.slice(0, 2).join(' ')}${inside || ' '}${ws.slice(2).join(' ')}.`);
    fc.assert(
      fc.property(fc.array(sentence, { minLength: 1, maxLength: 5 }), (ss) => {
        expect(sentences(ss.join(' '))).toEqual(ss);
      }),
    );
  });
});

describe('definition lists from HTML', () => {
  it('a <dl> entry is one unit: the term with its description (pdftoppm -r, an exit code)', () => {
    const md = htmlToMarkdown(
      '<h2>OPTIONS</h2><dl><dt><b>-r</b> <i>number</i></dt><dd>Specifies the X and Y resolution, in DPI. The default is 150 DPI.</dd></dl>' +
        '<h2>EXIT CODES</h2><dl><dt>0</dt><dd>No error.</dd><dt>3</dt><dd>Error related to PDF permissions.</dd></dl>',
    );
    const defs = documentUnits(md).filter((u) => u.kind === 'definition');
    expect(defs.map((d) => [d.term, d.description, d.headings])).toEqual([
      ['-r number', 'Specifies the X and Y resolution, in DPI. The default is 150 DPI.', ['OPTIONS']],
      ['0', 'No error.', ['EXIT CODES']],
      ['3', 'Error related to PDF permissions.', ['EXIT CODES']],
    ]);
  });
});

describe('slash-joined names', () => {
  it('short names joined by slashes are symbols; words joined by one are not', () => {
    expect(symbolsOf('l/N and r/K/N, I/O')).toEqual(['§l/n', '§r/k/n', '§i/o']);
    expect(symbolsOf('read and/or write, input/output, encoding/decoding')).toEqual([]);
    // A file by its path is also the file by its name; a directory or a URL's path is not a file.
    expect(symbolsOf('/etc/nsswitch.conf')).toEqual(['§etc/nsswitch.conf', '§nsswitch.conf']);
    expect(symbolsOf('/etc/dbus-1/')).toEqual(['§etc/dbus-1']);
    expect(symbolsOf('.drain()')).toEqual(['§.drain()', '§.drain', '§drain()', '§drain']);
  });

  it('on generated paths: English words joined by slashes are no symbol; a scoped package path is one', () => {
    const english = fc.constantFrom('read', 'write', 'input', 'output', 'and', 'or', 'colors', 'default', 'file');
    fc.assert(
      fc.property(fc.array(english, { minLength: 2, maxLength: 4 }), (words) => {
        fc.pre(words.some((w) => w.length > 2));
        expect(symbolsOf(`as ${words.join('/')} says`)).toEqual([]);
        const scoped = `@${words.join('/')}`;
        expect(symbolsOf(`import ${scoped} now`)).toEqual([`§${scoped}`]);
      }),
      { numRuns: 200 },
    );
  });

  // Session 72: "What is the load time of kleur/colors?" was answered with ansi-colors' line.
  it('a path naming a module is one symbol', () => {
    expect(symbolsOf('import from kleur/colors or rfdc/default, as application/json')).toEqual([
      '§kleur/colors',
      '§rfdc/default',
      '§application/json',
    ]);
  });

  it('a name joined to a number by a mark is one symbol: KOI8-U is not KOI8-R', () => {
    expect(symbolsOf('KOI8-U, UTF-16 LE, ISO-8859-1 and HTTP/3')).toEqual([
      '§koi8-u',
      '§utf-16',
      '§iso-8859-1',
      '§http/3',
    ]);
    expect(symbolsOf('a long-term, well-known 2019-09-03 release')).toEqual([]);
  });
});

describe('terms', () => {
  // Session 72: "How do I remove several items…" was refused: toad-cache never says "several".
  it('quantifiers are function words, as "many" and "some" are', () => {
    expect(termsOf('remove several items of various kinds')).toEqual(termsOf('remove items of kinds'));
  });

  it('symbols are searchable as written', () => {
    expect(symbolsOf('match `**` then')).toContain('§**');
    expect(termsOf('the -r number option')).toContain('§-r');
    expect(termsOf('configure --with-editline')).toContain('§--with-editline');
    expect(termsOf('call minimatch.makeRe(pattern)')).toContain('§.makere');
    expect(termsOf('What does .makeRe do?')).toContain('§.makere');
    expect(termsOf('uuid.parse() returns bytes')).toContain('§uuid.parse()');
    expect(termsOf('`^0.2.3` := `>=0.2.3 <0.3.0-0`')).toEqual(expect.arrayContaining(['§^0.2.3', '§0.2.3', '§:=']));
  });

  it('words are stemmed and CJK is segmented and paired', () => {
    expect(termsOf('releases released')).toEqual(['releas']);
    expect(termsOf('ESM 体积是多少')).toEqual(expect.arrayContaining(['esm', '体积']));
  });

  it('a three-letter word ending in s is an acronym, not a plural: TLS is not the TL of TL;DR', () => {
    expect(termsOf('TLS')).toEqual(['tls']);
    expect(termsOf('TL;DR')).not.toContain('tls');
    expect(termsOf('uses used use')).toEqual(['us']);
  });

  it('a verb in -ify and its noun in -ification share a stem', () => {
    expect(termsOf('modified modification modify')).toEqual(['modif']);
    expect(termsOf('specify specification')).toEqual(['specif']);
  });
});

// textlint's Japanese README writes the full stop it asks for as code, in brackets: "句点（`。`）などで
// 区切ってください。" was cut after the bracket, and an answer quoted "…句点（`。`）." with the rest lost.
it('a stop inside code, closed by a bracket, ends no sentence', () => {
  const md =
    '適切な長さで文を句点（`。`）などで区切ってください。\n\nRun it (see `a.out.`) Then stop. Call `x()`. Next.\n';
  expect(documentUnits(md).map((u) => u.markdown)).toEqual([
    '適切な長さで文を句点（`。`）などで区切ってください。',
    'Run it (see `a.out.`) Then stop.',
    'Call `x()`.',
    'Next.',
  ]);
});

describe('addresses and lead-ins', () => {
  // A rule's home page under its heading (textlint's presets) was a `https: //…` field, then the
  // section's opening sentence: an address says nothing a reader asks about.
  it('a paragraph that is only a URL is no unit, and a URL is no name: value field', () => {
    const units = documentUnits(
      '## Rule\n\n> https://github.com/textlint-rule/sentence-length\n\nKeep sentences short.\n',
    );
    expect(units.map((u) => [u.kind, u.text])).toEqual([['sentence', 'Keep sentences short.']]);
    expect(documentUnits('See https://example.com/x for more').map((u) => u.kind)).toEqual(['sentence']);
  });

  // dotenv's options each open with `Default: …`: the line is a property of its heading.
  it('a one-word name: value line opening its section has the heading as its subject; a later one has none', () => {
    const units = documentUnits('##### debug\n\nDefault: `false`\n\nTurn on logging.\n\nExample file: debug.js\n');
    expect(units.filter((u) => u.kind === 'field').map((u) => [u.text, u.subject])).toEqual([
      ['Default: false', 'debug'],
      ['Example file: debug.js', undefined],
    ]);
  });

  // A code block quoted with its lead-in said it as plain text: "passing a parameterLimit option".
  it("keeps a lead-in's code spans and emphasis as written", () => {
    const md =
      'By default **qs** parses 1000 parameters; pass a `parameterLimit` option:\n\n```js\nqs.parse(s, { parameterLimit: 1 });\n```\n';
    const code = documentUnits(md).find((u) => u.kind === 'code');
    expect(code?.leadIn).toBe('By default qs parses 1000 parameters; pass a parameterLimit option:');
    expect(code?.leadInMarkdown).toBe('By default **qs** parses 1000 parameters; pass a `parameterLimit` option:');
  });
});

describe('quoted notes', () => {
  it('a note ends its lines at `<br>` and leads into nothing after its quote', () => {
    const md =
      '#### `dequal/lite`\n> **Size (gzip):** 304 bytes<br>\n> **Availability:** CommonJS\n\n| | Map |\n|-|-|\n| `dequal/lite` | :x: |\n';
    const units = documentUnits(md);
    expect(units.filter((u) => u.kind === 'sentence').map((u) => u.text)).toEqual([
      'Size (gzip): 304 bytes',
      'Availability: CommonJS',
    ]);
    expect(units.find((u) => u.kind === 'row')?.leadIn).toBeUndefined();
    // In a table cell, `<br>` ends no row: the cell keeps it.
    const cell = documentUnits('| a | b |\n|-|-|\n| one<br>two | x |\n').find((u) => u.kind === 'row');
    expect(cell?.cells?.[0].markdown).toBe('one<br>two');
  });
});

describe('captions over code', () => {
  it('a paragraph ending in no sentence mark right over a code block is its lead-in, no sentence', () => {
    // pinyin-pro's disclosure label, and a README's "Via CLI".
    for (const caption of ['点击展开文本和拼音匹配示例', 'Via CLI']) {
      const units = documentUnits(`# Usage\n\n${caption}\n\n\`\`\`\nmatch("中文拼音", "zwp");\n\`\`\`\n`);
      expect(units.filter((u) => u.kind === 'sentence')).toEqual([]);
      expect(units.find((u) => u.kind === 'code')?.leadIn).toBe(caption);
    }
    // One ending as a sentence states something, and leads in too.
    const stated = documentUnits('Run the tests.\n\n```\nnpm test\n```\n');
    expect(stated.filter((u) => u.kind === 'sentence').map((u) => u.text)).toEqual(['Run the tests.']);
  });
});

describe('sections named by a flag', () => {
  // prh's "### `--stdout` オプション": "v3.x系まではこのオプションが…" says "this option" of `--stdout`.
  it('a heading that is a flag, alone or with its kind, names what its sentences say', () => {
    const flag = fc.stringMatching(/^--?[a-z][a-z0-9-]{0,12}$/);
    fc.assert(
      fc.property(flag, fc.constantFrom('', ' option', ' オプション', ' flag'), (name, kind) => {
        const units = documentUnits(`# tool\n\n### \`${name}\`${kind}\n\nThis option prints the result.\n`);
        const sentence = units.find((u) => u.kind === 'sentence' && u.text.startsWith('This option'));
        expect(sentence?.termMarkdown).toBe(`\`${name}\``);
      }),
    );
    const plain = documentUnits('# tool\n\n### Options\n\nThis option prints the result.\n');
    expect(plain.find((u) => u.kind === 'sentence')?.termMarkdown).toBeUndefined();
  });
});

describe('a table of contents that lost its links', () => {
  it("a list of three or more of the document's headings is navigation: none of its items is a unit", () => {
    const title = fc.array(word, { minLength: 2, maxLength: 5 }).map((w) => `${w.join(' ')} guide`);
    fc.assert(
      fc.property(fc.uniqueArray(title, { minLength: 3, maxLength: 7, selector: (t) => t }), (titles) => {
        const md = [
          '# Contents',
          titles.map((t) => `- ${t}`).join('\n'),
          ...titles.map((t) => `## ${t}\n\nThe text of ${t}.`),
        ].join('\n\n');
        const items = documentUnits(md).filter((u) => u.kind === 'item');
        expect(items).toEqual([]);
        for (const t of titles) expect(documentUnits(md).some((u) => u.text === `The text of ${t}.`)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('a list naming only two headings, or other things, is content', () => {
    const md = '- Install\n- Usage\n- Anything else\n\n## Install\n\nRun it.\n\n## Usage\n\nCall it.';
    expect(documentUnits(md).filter((u) => u.kind === 'item')).toHaveLength(3);
  });
});

describe("a definition's description around a list", () => {
  it('the paragraph after the list its description leads into still describes the term', () => {
    const md = [
      '## OPTIONS',
      '**-m**, **--mail** _command_',
      'Tells logrotate which command to use when mailing logs. This command should accept the following arguments:',
      '1) the subject of the message\n2) the recipient.',
      'The default mail command is _/usr/bin/mail_.',
      '**--usage**',
      'Prints a short usage message.',
    ].join('\n\n');
    const said = documentUnits(md).find((u) => u.text.startsWith('The default mail command'));
    expect(said?.term).toBe('-m, --mail command');
  });

  it('a paragraph after a list that no description leads into is the section’s', () => {
    const md = ['## FILES', 'Some files:', '- one\n- two', 'The default is none.'].join('\n\n');
    expect(documentUnits(md).find((u) => u.text === 'The default is none.')?.term).toBeUndefined();
  });
});

describe('stems of names English never says', () => {
  it('a compound name keeps its whole stem; an English word is cut as before', () => {
    expect(termsOf('compressoptions')).not.toEqual(termsOf('compresscmd'));
    expect(termsOf('compressoptions')).not.toEqual(termsOf('compress'));
    expect(termsOf('prioritized')).toEqual(termsOf('priorities'));
    expect(termsOf('configuration')).toEqual(termsOf('configure'));
  });
});

describe("a call's signature over its parameters", () => {
  it('a one-line code block naming a call leads into the list under it; other code leads into nothing', () => {
    const md = '```\ngenSalt(rounds, minor, cb)\n```\n\n- rounds - the cost. (default - 10)\n- cb - a callback.';
    const items = documentUnits(md).filter((u) => u.kind === 'item');
    expect(items.map((u) => u.leadIn)).toEqual(['genSalt(rounds, minor, cb)', 'genSalt(rounds, minor, cb)']);
    const other = documentUnits('```\nnpm install bcrypt\n```\n\n- one\n- two').filter((u) => u.kind === 'item');
    expect(other.map((u) => u.leadIn)).toEqual([undefined, undefined]);
  });
});
