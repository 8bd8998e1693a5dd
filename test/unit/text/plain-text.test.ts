import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toString } from 'mdast-util-to-string';
import type { Root, RootContent } from 'mdast';
import { describe, expect, it } from 'vitest';
import { plainTextToMarkdown } from '../../../src/server/text/plain-text.js';
import { documentUnits } from '../../../src/server/text/units.js';

/**
 * Plain text keeps its structure as Markdown (issue 44: a plain-text FAQ answered with its question,
 * since a `~~~` underline had opened a fence over the whole document and no unit had a heading).
 */
const tree = (text: string): Root => fromMarkdown(plainTextToMarkdown(text));
const kinds = (root: Root) => root.children.map((n) => n.type);
const headings = (root: Root) =>
  root.children.filter((n) => n.type === 'heading').map((n) => [(n as { depth: number }).depth, toString(n)]);
const words = (s: string) => s.match(/\p{L}{2,}/gu) ?? [];
/** Every text of a tree, a space between nodes (toString runs a heading into the next paragraph). */
const allText = (n: object): string =>
  'value' in n ? String(n.value) : 'children' in n ? (n.children as object[]).map(allText).join(' ') : '';

describe('plain text as Markdown', () => {
  it('a line marked as a Markdown heading is one, though it ends as a sentence (YAJL\'s "## YAJL is Free.")', () => {
    const md = plainTextToMarkdown(
      readFileSync(path.resolve(import.meta.dirname, '../../fixtures/real-docs/yajl-readme.txt'), 'utf8'),
    );
    expect(md).toContain('## YAJL is Free.\n\nPermissive licensing means');
    expect(md).toContain('## YAJL is data representation independent.\n\nBYODR!');
    expect(md).not.toContain('```\n## YAJL');
  });

  it("an outline's starred titles over their text are headings; starred lines after each other stay a list", () => {
    const outline = '* Building\n\nRun make.\n\n* Testing\n\nRun make check.\n\n* Bugs\n\nMail us.\n';
    expect(plainTextToMarkdown(outline)).toBe(
      '## Building\n\nRun make.\n\n## Testing\n\nRun make check.\n\n## Bugs\n\nMail us.\n',
    );
    const list = 'Features:\n\n* Fast\n\n* Small\n\n* Tested\n\nThat is all.\n';
    expect(plainTextToMarkdown(list)).not.toContain('#');
  });

  it('a FAQ: an underlined title, sections between rules, numbered questions with their answers', () => {
    const faq = [
      'Widget FAQ',
      '~~~~~~~~~~',
      '',
      '----------------------------------------',
      '1. Background',
      '----------------------------------------',
      '',
      '1.1. How do you pronounce "Widget"? ',
      'Like the word "widget". Almost everyone gets it right.',
      '------------------------------------------------------',
      '',
      '1.2. When building, make dies partway with an assertion ',
      'failure, something like this: ',
      '',
      '    % make: expand.c:489: allocated_variable_append: ',
      "            Assertion 'list->next != 0' failed.",
      '',
      'It is probably a bug in make 3.79.1.',
    ].join('\n');
    const root = tree(faq);
    expect(headings(root)).toEqual([
      [1, 'Widget FAQ'],
      [2, '1. Background'],
      [2, '1.1. How do you pronounce "Widget"?'],
      [2, '1.2. When building, make dies partway with an assertion failure, something like this:'],
    ]);
    const code = root.children.find((n) => n.type === 'code');
    expect(code && 'value' in code && code.value).toBe(
      "% make: expand.c:489: allocated_variable_append:\n        Assertion 'list->next != 0' failed.",
    );
    // Each answer's units carry the question as their heading; the question is not a sentence of its own.
    const answer = documentUnits(plainTextToMarkdown(faq)).find((u) => u.text.startsWith('Like the word'));
    expect(answer?.headings.at(-1)).toBe('1.1. How do you pronounce "Widget"?');
  });

  it('a man page as text: capitals over an indented body, options over their descriptions', () => {
    const page = [
      'NAME',
      '\tfrob - frobnicates a file.',
      '',
      'OPTIONS',
      '\t-r number',
      '\t\tSets the resolution to number DPI. The default is 150 DPI.',
      '',
      '\t--quiet      Prints nothing at all.',
    ].join('\n');
    const root = tree(page);
    expect(headings(root)).toEqual([
      [1, 'NAME'],
      [1, 'OPTIONS'],
    ]);
    expect(plainTextToMarkdown(page)).toContain(
      '**-r number**\n\nSets the resolution to number DPI. The default is 150 DPI.',
    );
    expect(plainTextToMarkdown(page)).toContain('**--quiet**\n\nPrints nothing at all.');
    expect(kinds(root)).not.toContain('code');
  });

  it('lists: items set apart by blank lines are one list, wrapped lines join their item', () => {
    const text = [
      'You can do it three ways:',
      '',
      '* With GCC 2.91 and 3.1, compile all source using the STL ',
      'with -D__USE_MALLOC. Beware!',
      '',
      '* With GCC 3.2.2 and later, export the variable',
      '  GLIBCPP_FORCE_NEW before running.',
      '',
      '1. first',
      '2. second',
    ].join('\n');
    const root = tree(text);
    expect(kinds(root)).toEqual(['paragraph', 'list', 'list']);
    const bullets = root.children[1] as Extract<RootContent, { type: 'list' }>;
    expect(bullets.children.map((i) => toString(i))).toEqual([
      'With GCC 2.91 and 3.1, compile all source using the STL with -D__USE_MALLOC. Beware!',
      'With GCC 3.2.2 and later, export the variable GLIBCPP_FORCE_NEW before running.',
    ]);
    expect((root.children[2] as { ordered: boolean }).ordered).toBe(true);
  });

  it('code is indented past the prose around it, or reads as code; indented prose stays prose', () => {
    const text = [
      'You can build it in the source directory:',
      '',
      '      cd gdb-VERSION',
      '      ./configure --prefix=/usr/local   (or wherever you want)',
      '      make all install',
      '',
      'First, a quote:',
      '',
      '     Our units of temporal measurement, from seconds on up to months,',
      '     are so complicated that reckoning in time is all but impossible.',
    ].join('\n');
    const root = tree(text);
    expect(kinds(root)).toEqual(['paragraph', 'code', 'paragraph', 'paragraph']);
    expect((root.children[1] as { value: string }).value).toBe(
      'cd gdb-VERSION\n./configure --prefix=/usr/local   (or wherever you want)\nmake all install',
    );
  });

  it("a paragraph whose first line alone is indented (a typewriter's paragraph) is prose, not code", () => {
    const text = [
      '\tThis is the new version (1.47.0) of the second extended file',
      'system management programs.',
      '',
      "\tIn case of bugs in these programs, please contact Ted Ts'o at",
      'tytso@mit.edu or tytso@alum.mit.edu.',
    ].join('\n');
    const root = tree(text);
    expect(kinds(root)).toEqual(['paragraph', 'paragraph']);
    expect(plainTextToMarkdown(text)).toContain(
      'This is the new version (1.47.0) of the second extended file system management programs.',
    );
  });

  it('a paragraph hung from a label ("A:   " over lines set in to its text) is one paragraph of prose, never code', () => {
    const word = fc.stringMatching(/^[a-z]{2,9}$/);
    fc.assert(
      fc.property(
        fc.constantFrom('A:', 'Q:', 'Note:', 'NB.'),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.array(word, { minLength: 4, maxLength: 10 }), { minLength: 2, maxLength: 6 }),
        (label, gap, rows) => {
          const set = ' '.repeat(label.length + gap);
          const lines = rows.map((r, i) => `${i === 0 ? label + ' '.repeat(gap) : set}${r.join(' ')}`);
          lines[lines.length - 1] += '.';
          const root = tree(lines.join('\n'));
          expect(kinds(root)).toEqual(['paragraph']);
          expect(words(toString(root))).toEqual(words(lines.join(' ')));
        },
      ),
      { numRuns: 80 },
    );
  });

  it("a `--` set off by a tab marks a list item (Vixie cron's FEATURES); one followed by a single space does not", () => {
    const word = fc.stringMatching(/^[a-z]{2,9}$/);
    fc.assert(
      fc.property(fc.array(fc.array(word, { minLength: 3, maxLength: 8 }), { minLength: 2, maxLength: 6 }), (items) => {
        const text = items.map((w) => `--\t${w.join(' ')}.`).join('\n\n');
        const root = tree(text);
        expect(kinds(root)).toEqual(['list']);
        expect((root.children[0] as { children: unknown[] }).children).toHaveLength(items.length);
      }),
      { numRuns: 60 },
    );
    expect(kinds(tree('-- not a list item, a dash.'))).toEqual(['paragraph']);
  });

  it('screen\'s FAQ: an answer hung from its "A:" is one paragraph under its question (the AIX patch was quoted as code)', () => {
    const md = plainTextToMarkdown(
      readFileSync(path.resolve(import.meta.dirname, '../../fixtures/real-docs/screen-faq.txt'), 'utf8'),
    );
    expect(md).toContain(
      'A:   This   is  not  a   screen  problem.   According  to  Kay  Nettle (pkn@cs.utexas.edu) you need the AIX patch PTF 423674.',
    );
    expect(md).not.toMatch(/```\n\(pkn@/);
  });

  it('a FAQ numbered 1., 2., …: each question heads the answer indented under it, which stays prose when it names calls', () => {
    const faq = [
      '                Questions about libfoo',
      '',
      ' 1. Is libfoo thread-safe?',
      '',
      '    Yes.  However the memory allocation routines you give it must also be',
      '    thread-safe.',
      '',
      ' 2. compress() returns an error.',
      '',
      '    Yes.  inflate() and deflate() will process any amount of data correctly.',
      '    Each call of inflate() or deflate() is limited to input and output chunks',
      '    of the size an unsigned int holds, but there is no limit to the chunks.',
      '',
      '10. How do I build it?',
      '',
      '    make distclean',
      '    ./configure',
      '    make',
      '',
    ].join('\n');
    const root = tree(faq);
    expect(headings(root).map(([, text]) => text)).toEqual([
      'Questions about libfoo',
      '1. Is libfoo thread-safe?',
      '2. compress() returns an error.',
      '10. How do I build it?',
    ]);
    expect(kinds(root)).toEqual(['heading', 'heading', 'paragraph', 'heading', 'paragraph', 'heading', 'code']);
    const units = documentUnits(plainTextToMarkdown(faq));
    const answer = units.find((u) => u.text.startsWith('However the memory'));
    expect(answer?.headings.at(-1)).toBe('1. Is libfoo thread-safe?');
  });

  it('a comment over a command is code, however many words the comment has', () => {
    const text = [
      'To remove them:',
      '',
      '   # Delete all leading blank lines at top of file (only).',
      "   sed '/./,$!d' file",
    ];
    const root = tree(text.join('\n'));
    expect(kinds(root)).toEqual(['paragraph', 'code']);
  });

  it('numbered lines that follow each other, or fewer than three questions, stay a list', () => {
    const steps = [
      'The steps are these:',
      '',
      '1. Download it.',
      '',
      '    From the site.',
      '',
      '2. Build it.',
      '',
      '    With make.',
    ];
    expect(kinds(tree(steps.join('\n')))).not.toContain('heading');
    const list = ['The steps are these:', '', '1. one', '2. two', '3. three'];
    expect(kinds(tree(list.join('\n')))).toEqual(['paragraph', 'list']);
  });

  it('Markdown marks in plain text are text: no emphasis, no heading, no fence', () => {
    const text = 'Use *foo* and _bar_ here.\n# not a heading\n```\nstill text, and it goes on.';
    const root = tree(text);
    expect(kinds(root)).toEqual(['paragraph']);
    expect(toString(root)).toBe('Use *foo* and _bar_ here. # not a heading ``` still text, and it goes on.');
  });

  it('hard-wrapped Chinese joins without spaces', () => {
    expect(toString(tree('这是第一行的文字，\n这是第二行的文字。'))).toBe('这是第一行的文字，这是第二行的文字。');
  });

  it('keeps every word, in order, whatever the layout (generated)', () => {
    const word = fc.stringMatching(/^[A-Za-z]{1,8}[.,:?]?$/);
    const line = fc.oneof(
      fc.array(word, { minLength: 1, maxLength: 10 }).map((ws) => ws.join(' ')),
      fc.constantFrom('', '', '-----', '=====', '~~~~~', '****', '  ', '\t'),
      fc
        .tuple(
          fc.constantFrom('- ', '* ', '1. ', 'a) ', '    ', '\t', '1.2. ', '-x  ', '`', '#', '> ', '| '),
          word,
          word,
        )
        .map(([m, a, b]) => `${m}${a} ${b}`),
      fc.stringMatching(/^[A-Z]{2,10}$/),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), (ls) => {
        const input = ls.join('\n');
        const kept = input
          .split('\n')
          .filter((l) => !/^\s*([-=~*_#+.^])\1{2,}\s*$/.test(l))
          .join('\n');
        // One-letter bullets ("a)") are markers, not words: words of two letters or more are compared.
        expect(words(allText(tree(input)))).toEqual(words(kept));
      }),
      { numRuns: 300 },
    );
  });

  // bc's README gives its program, author and licence one to a line: they were one paragraph, and
  // "Author: Philip A. Nelson" no field of its own.
  it('reads lines each naming a value as fields, one a paragraph, with the lines they go on over', () => {
    const text = 'Program: GNU bc\nAuthor: Philip A. Nelson\nCopying: GNU GPL\nversion 2\nVersion: bc version 1.01\n';
    const root = tree(text);
    expect(root.children.map((n) => [n.type, toString(n)])).toEqual([
      ['paragraph', 'Program: GNU bc'],
      ['paragraph', 'Author: Philip A. Nelson'],
      ['paragraph', 'Copying: GNU GPL version 2'],
      ['paragraph', 'Version: bc version 1.01'],
    ]);
    const author = documentUnits(plainTextToMarkdown(text)).find((u) => u.text.startsWith('Author'));
    expect(author).toMatchObject({ kind: 'field', name: 'Author', value: 'Philip A. Nelson' });
  });

  // fakeroot's "Portability Notes" and WenQuanYi's "II. Development History" were paragraphs of their own.
  it('reads a short line alone over a paragraph as its section heading', () => {
    const text = [
      'fakeroot can be built to either use SYSV IPC or TCP for message passing.',
      '',
      'Portability Notes',
      '',
      'On OS X, only binaries that do NOT rely on Mach-based APIs will correctly use',
      'fakeroot altered ownership/permissions.',
      '',
      ' II.   Development History',
      '',
      'The original Droid Sans Fallback font contain 16,000 Unified Han glyphs, and was',
      'officially released by Google.',
      '',
      'Table of Content',
      '',
      ' I.    About this font',
      ' II.   Development History',
    ].join('\n');
    const headings = tree(text)
      .children.filter((n) => n.type === 'heading')
      .map((n) => toString(n));
    expect(headings).toEqual(['Portability Notes', 'II. Development History']);
  });

  // Session 74's fresh check, Debian READMEs as shipped (test/fixtures/real-docs): dictionaries-common's
  // "To enable debug messages from dictionaries-common," (a comma at its end) was code, with the
  // command under it; a paragraph opening its line on an issue number (#282587) and an e-mail quoted
  // with `>` were code; openssh's commands set in under "then you can run:" were joined into one line.
  const fixture = (f: string) => readFileSync(path.resolve(import.meta.dirname, '../../fixtures/real-docs', f), 'utf8');

  it('reads a wrapped sentence ending in a comma as prose, and the command under it as code', () => {
    const md = plainTextToMarkdown(fixture('dictionaries-common-problems.txt'));
    expect(md).toContain('To enable debug messages from dictionaries-common,\n\n```\nexport DICT_COMMON_DEBUG=1\n```');
    expect(md).toMatch(
      /^In most old cases \(See #198297, .* fixed in debconf 1\.5\.0 \(See #198297\)\. From its changelog,$/m,
    );
  });

  it('reads an e-mail quotation as a quotation, its lines joined', () => {
    const quote = tree(fixture('dictionaries-common-problems.txt')).children.find((n) => n.type === 'blockquote');
    expect(quote && toString(quote)).toMatch(
      /^By purging and reinstalling the package, .* consistent debconf database\.$/,
    );
  });

  it('keeps the lines set in under a paragraph ending in a colon apart, as code', () => {
    const md = plainTextToMarkdown(fixture('openssh-readme-debian.txt'));
    expect(md).toContain(
      'then you can run:\n\n```\nsystemctl disable --now ssh.service\nsystemctl start ssh.socket\n```',
    );
    expect(md).toContain('These are:\n\n```\nKeyRegenerationInterval\nRSAAuthentication\n');
  });

  // Session 75: dbus's `<busconfig>` lines were read as a term over its description; git's commands
  // set in under a line ending in a colon, in a numbered item or after "Or:", were joined to the prose.
  it('keeps config and commands set in under a line ending in a colon as code, in a list item too', () => {
    expect(plainTextToMarkdown(fixture('dbus-readme-debian.txt'))).toContain(
      '/etc/dbus-1/system.d/\\*.conf:\n\n```\n<busconfig>\n  <limit name="auth_timeout">5000</limit>\n</busconfig>\n```',
    );
    const md = plainTextToMarkdown(fixture('git-readme-debian.txt'));
    expect(md).toContain('to run it permanently:\n\n```\n cat >> /etc/inetd.conf <<EOF\ngit stream tcp4 nowait');
    expect(md).toContain('Or:\n\n```\napt-get install git-daemon-run\n```');
    expect(md).toContain('looks like this:\n\n```\n<VirtualHost *:80>\n    ServerName git.example.org\n');
    expect(md).toContain('    RedirectMatch permanent "^/~(.*)$" "http://example.org/~$1"\n</VirtualHost>\n```');
  });

  // Session 77: groff's macro paths, each over a dashed line set in under it, were a code line and a
  // list (the first, led into by "as follows:") or a bold line and a list: no path said what it was for.
  it('reads a label over one dashed line set in under it as a term and its description', () => {
    const md = plainTextToMarkdown(fixture('groff-base-readme-debian.txt'));
    expect(md).toContain(
      'as follows:\n\n**/usr/lib/groff/site-tmac**\n\nold directory for compatibility purposes\n\n' +
        '**/usr/share/groff/site-tmac (symlink to /etc/groff)**\n\nlocal macro configuration, such as man.local\n\n',
    );
    const units = documentUnits(md).filter((u) => u.kind === 'definition');
    expect(units.map((u) => [u.term, u.description])).toContainEqual([
      '/usr/share/groff/site-tmac (symlink to /etc/groff)',
      'local macro configuration, such as man.local',
    ]);
    // Session 81: the packages above them ("groff      - all other components") are terms too.
    expect(units.map((u) => [u.term, u.description])).toContainEqual(['groff', 'all other components']);
    expect(units).toHaveLength(6);
  });

  // Session 77: passwd's "---Adding users and groups" was a paragraph, said as an answer.
  it('reads a line set off by a run of marks before it, over prose, as a heading', () => {
    const found = headings(tree(fixture('passwd-readme-debian.txt'))).map(([, text]) => text);
    expect(found).toEqual([
      'Shadow passwords',
      'General configuration',
      'MD5 Encryption',
      'Adding users and groups',
      'Group administration',
      'What to read next?',
    ]);
    // A title between rules of marks is not one: bc's "-------- Original … README --------".
    expect(headings(tree(fixture('bc-readme.txt'))).map(([, text]) => text)).not.toContainEqual(
      expect.stringContaining('Original comp.sources.reviewed'),
    );
  });

  // base-files' FAQ: one question of many was a heading (the only one short enough), and every
  // answer after it was under it.
  it('reads each "Q." question over its answer as a heading', () => {
    const found = headings(tree(fixture('base-files-faq.txt'))).map(([, text]) => text);
    expect(found).toContain('Q. Why "trixie/sid" and not "testing/unstable" as it used to be?');
    expect(found).toContain("Q. Ok, but how do I know which distribution I'm running?");
    expect(found.filter((h) => String(h).startsWith('Q.')).length).toBeGreaterThanOrEqual(5);
  });

  // Session 79: libcap2-bin's README.Debian set its commands in by two spaces, their output under
  // them; "$ ls -l /bin/ping -rwsr-xr-x 1 root…" was read as one paragraph.
  it('reads a shell prompt and the lines under it as one block of code', () => {
    const md = plainTextToMarkdown(fixture('libcap2-bin-readme-debian.txt'));
    expect(md).toContain('```\n$ ls -l /bin/ping\n-rwsr-xr-x 1 root root 30736 2007-01-31 00:10 /bin/ping\n');
    expect(md).toContain('```\n$ ping -c1 localhost\nping: icmp open socket: Operation not permitted\n```');
  });

  // Session 81: postgresql-common's commands ("pg_dropcluster    - Completely remove a cluster.").
  it('a run of generated "name  - what it does" lines, some wrapped under their description, is one term each', () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9_]{2,12}$/);
    const words = fc.array(fc.stringMatching(/^[a-z]{2,8}$/), { minLength: 2, maxLength: 6 }).map((w) => w.join(' '));
    const entry = fc.tuple(name, words, fc.option(words, { nil: undefined }));
    fc.assert(
      fc.property(fc.uniqueArray(entry, { minLength: 2, maxLength: 6, selector: (e) => e[0] }), (entries) => {
        const width = Math.max(...entries.map(([n]) => n.length)) + 2;
        const lines = entries.flatMap(([n, first, more]) => [
          `   ${n.padEnd(width)}- ${first}${more ? '' : '.'}`,
          ...(more ? [`${' '.repeat(width + 5)}${more}.`] : []),
        ]);
        const md = plainTextToMarkdown(`Commands\n--------\nThese are provided:\n\n${lines.join('\n')}\n`);
        const defs = documentUnits(md).filter((u) => u.kind === 'definition');
        expect(defs.map((d) => [d.term, d.description])).toEqual(
          entries.map(([n, first, more]) => [n, more ? `${first} ${more}.` : `${first}.`]),
        );
      }),
    );
  });
  // Session 86: GnuPG's KEYSERVER defines each field of a listing as "<count> = the number of keys…",
  // its description going on under itself; read as code, "What does the count field mean?" got the
  // listing's line `info:<version>:<count>`.
  it('reads "<name> = what it means" as a term and its description; a value a config line sets stays code', () => {
    const md = plainTextToMarkdown(fixture('gnupg-keyserver.txt'));
    const defs = documentUnits(md).filter((u) => u.kind === 'definition');
    const said = (term: string) => defs.find((d) => d.term === term)?.description;
    expect(said('<count>')).toBe(
      'the number of keys returned in this response.  Note this is the number of keys, and not the number of lines returned. It should match the number of "pub:" lines returned.',
    );
    expect(said('<escaped uid string>')).toMatch(/^the user ID string, with HTTP %-escaping for anything/);
    // "r == revoked": one of a run of letters each said to mean a word.
    expect(said('r')).toBe('revoked');
    const config = plainTextToMarkdown(
      'Example settings:\n\n    compress = yes\n    mode = strict\n    level = high\n',
    );
    expect(documentUnits(config).filter((u) => u.kind === 'definition')).toEqual([]);
  });

  // base-passwd's README lists its reserved uids and gids as psql prints a table: read as a
  // paragraph of code, "Which uid is reserved for mysql?" found no row.
  it('reads a table drawn with pipes over a rule of dashes as a table, each line a row under its header', () => {
    const readme = readFileSync(
      path.join(import.meta.dirname, '../../fixtures/real-docs/base-passwd-readme.txt'),
      'utf8',
    );
    const rows = documentUnits(plainTextToMarkdown(readme)).filter((u) => u.kind === 'row');
    expect(rows).toHaveLength(22 + 21);
    const mysql = rows.filter((r) => r.cells?.[1].text === 'mysql');
    expect(mysql.map((r) => [r.header?.map((h) => h.text), r.rowKey, r.cells?.[2].text])).toEqual([
      [['uid', 'name', 'description'], '64001', 'mysql-server'],
      [['gid', 'name', 'description'], '64001', 'mysql-server'],
    ]);
    expect(rows.at(-1)?.cells?.map((c) => c.text)).toEqual(['64065', 'gnocchi', 'Gnocchi - Metric as a Service']);
  });

  it('reads generated tables drawn with pipes, psql-style or boxed, cell for cell', () => {
    const cell = fc.oneof(fc.stringMatching(/^[a-z]{1,8}(?: [a-z]{1,8}){0,2}$/), fc.stringMatching(/^[0-9]{1,6}$/));
    const table = fc.integer({ min: 2, max: 4 }).chain((width) =>
      fc.record({
        header: fc.uniqueArray(fc.stringMatching(/^[a-z]{2,8}$/), { minLength: width, maxLength: width }),
        rows: fc.array(fc.array(cell, { minLength: width, maxLength: width }), { minLength: 1, maxLength: 5 }),
        boxed: fc.boolean(),
      }),
    );
    fc.assert(
      fc.property(table, ({ header, rows, boxed }) => {
        const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
        const line = (cells: string[]) => cells.map((c, i) => ` ${c.padEnd(widths[i])} `).join('|');
        const rule = widths.map((w) => '-'.repeat(w + 2)).join('+');
        const drawn = boxed
          ? [`+${rule}+`, `|${line(header)}|`, `+${rule}+`, ...rows.map((r) => `|${line(r)}|`), `+${rule}+`]
          : [line(header), rule, ...rows.map(line)];
        const md = plainTextToMarkdown(
          `Values\n------\nThe values are:\n\n${drawn.map((l) => `    ${l}`).join('\n')}\n`,
        );
        const units = documentUnits(md).filter((u) => u.kind === 'row');
        expect(units.map((u) => u.cells?.map((c) => c.text))).toEqual(rows);
        expect(units.every((u) => u.header?.map((h) => h.text).join() === header.join())).toBe(true);
      }),
    );
  });
});
