import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markdownBlocks } from '../../../src/server/text/markdown.js';
import { markdownTitle } from '../../../src/server/text/markdown-tree.js';
import { termsOf } from '../../../src/server/text/terms.js';
import { infinitiveOf, inDocumentWords, verbForms } from '../../../src/server/text/verbs.js';
import { searchWords } from '../../../src/server/engines/retrieval/fts-query.js';

describe("a Markdown document's title and headings", () => {
  it('are the heading as text, without its badges', () => {
    const readme =
      '# fecha [![Build Status](https://travis-ci.org/t/fecha.svg?branch=master)](https://travis-ci.org/t/fecha)\n\nLightweight date formatting.';
    expect(markdownTitle(readme)).toBe('fecha');
    expect(markdownBlocks(`${readme}\n\n## Use it\n\nText.`).at(-1)?.section).toEqual(['fecha', 'Use it']);
  });

  it('a logo alone keeps its alt text; a setext title counts; a `#` line inside code does not', () => {
    expect(markdownTitle('# ![pino](logo.png)\n\ntext')).toBe('pino');
    expect(markdownTitle('Cookies\n=======\n\nCookies is a module.')).toBe('Cookies');
    expect(markdownTitle('```sh\n# install it\nnpm i x\n```\n\n# Real title\n')).toBe('Real title');
    expect(markdownTitle('## Only a section\n\ntext')).toBeNull();
  });
});

describe('verbs as documents write them', () => {
  it('an irregular past is its infinitive, for the question and the document alike', () => {
    expect(infinitiveOf('wrote')).toBe('write');
    expect(infinitiveOf('written')).toBe('write');
    expect(termsOf('Who wrote date?')).toContain(termsOf('Written by David MacKenzie.')[0]);
    // Forms more often a noun or an adjective stay themselves: "64-bit", "Not Found", "a given value".
    expect(infinitiveOf('bit')).toBe('bit');
    expect(infinitiveOf('found')).toBe('found');
    expect(infinitiveOf('given')).toBe('given');
  });

  it("the search looks for a verb's other forms, and not for regular spellings the list holds", () => {
    expect(searchWords('Who wrote date?')).toEqual(expect.arrayContaining(['wrote', 'write', 'written']));
    expect(verbForms('format')).toEqual([]);
  });

  it('"turn on" is "enable", "switch off" is "disable"', () => {
    expect(inDocumentWords("How do I turn on send's debug output?")).toBe("How do I enable send's debug output?");
    expect(inDocumentWords('Switching off colours')).toBe('disable colours');
    expect(searchWords('How do I turn on debug output?')).toContain('enable');
  });

  it('so is one whose particle follows its object: "turn colors off", not "turn it into a string on Windows"', () => {
    expect(inDocumentWords("How do I turn colors off in debug's output?")).toBe(
      "How do I disable colors in debug's output?",
    );
    expect(inDocumentWords('Turn the cache on')).toBe('enable the cache');
    expect(inDocumentWords('turn it into a string on Windows')).toBe('turn it into a string on Windows');
  });

  // multer's README (session 74): "if no filename is given" had become "by default", and the
  // question was answered from "If no `destination` is given, …".
  it('"if no X is given" asks for the default of X, and keeps X', () => {
    expect(inDocumentWords('What happens if no filename is given to DiskStorage?')).toBe(
      'What happens filename by default to DiskStorage?',
    );
    expect(inDocumentWords('What is used when none is set?')).toBe('What is used by default?');
  });
});

describe('symbols', () => {
  it('a name opening on two underscores is a symbol: a cookie prefix, a Node.js global', () => {
    expect(termsOf('What does the __Host- prefix mean?')).toContain('§__host-');
    expect(termsOf('`__dirname` in ES modules')).toContain('§__dirname');
  });

  // "Which Node.js version does arg require?" was covered by `node cli.js`: both gave the member `.js`.
  it("a file's extension is no member: Node.js and cli.js share no symbol, .makeRe and minimatch.makeRe do", () => {
    const shared = (a: string, b: string) => termsOf(a).filter((t) => t.startsWith('§') && termsOf(b).includes(t));
    expect(shared('Node.js', 'node cli.js --extraneous true')).toEqual([]);
    expect(shared('What does .makeRe return?', 'minimatch.makeRe(pattern)')).toEqual(['§.makere']);
  });

  // cnchar's "支持 **IE9**及以上版本" did not answer "支持哪个版本的 IE？"; dbus-1.8.8 was `dbus-1` and `8.8`.
  it('a name with its version run on holds the name; a release with its version holds the version', () => {
    expect(termsOf('supports IE9+')).toEqual(expect.arrayContaining(termsOf('IE')));
    expect(termsOf('the fix in dbus-1.8.8')).toContain('§1.8.8');
  });

  // serve-static's "Redirect to trailing "/" when the pathname is a dir." did not hold "slash".
  it('a mark written as a token of its own is held by its name; a full stop after a quote is none', () => {
    expect(termsOf('Redirect to trailing "/" when the pathname is a dir.')).toContain(termsOf('slash')[0]);
    expect(termsOf('separated by `,` or by ` ; `')).toEqual(expect.arrayContaining(termsOf('comma semicolon')));
    expect(termsOf("Defaults to '100kb'.")).toEqual(termsOf('Defaults to 100kb'));
    expect(termsOf('a/b, c.d')).toEqual(termsOf('a/b c.d'));
  });

  it('a mark between words adds its name only where it stands alone or quoted', () => {
    const word = fc.stringMatching(/^[a-z]{2,8}$/);
    const mark = fc.constantFrom('/', ',', ';', '-', '|', '~', '%');
    const name = {
      '/': 'slash',
      ',': 'comma',
      ';': 'semicolon',
      '-': 'hyphen',
      '|': 'pipe',
      '~': 'tilde',
      '%': 'percent',
    };
    fc.assert(
      fc.property(word, word, mark, fc.constantFrom(' ', '"', '`'), (a, b, m, q) => {
        const named = termsOf(name[m as keyof typeof name])[0];
        const alone = q === ' ' ? `${a} ${m} ${b}` : `${a} ${q}${m}${q} ${b}`;
        expect(termsOf(alone)).toContain(named);
        // Glued to a word, the mark is part of it (a/b, a-b), not a token of its own.
        if (![a, b].some((w) => termsOf(w).includes(named))) expect(termsOf(`${a}${m}${b}`)).not.toContain(named);
      }),
      { numRuns: 200 },
    );
  });
});

describe('spelling', () => {
  it('British and American spellings are one term; words that only look British stay themselves', () => {
    expect(termsOf('What licence is it under?')).toContain(termsOf('License')[0]);
    expect(termsOf('initialise the colour')).toEqual(termsOf('initialize the color'));
    expect(termsOf('four hours')).toEqual(['four', 'hour']);
    // -ize verbs take -ise: Porter's stemmer would cut "normalize" to "normal", another word.
    expect(termsOf('normalise')).toEqual(termsOf('normalize'));
    expect(termsOf('normalize')).not.toEqual(termsOf('normal'));
    expect(searchWords('How do I initialise it?')).toContain('initialize');
    expect(searchWords('What licence is fastq released under?')).toContain('license');
  });
});

describe('titles of documents whose top-level headings are sections', () => {
  it('has none when the first top-level heading has no section under it', () => {
    const sections = 'Description\n===========\n\nA module.\n\nInstall\n=======\n\n    npm install it\n';
    expect(markdownTitle(sections)).toBeNull();
    expect(markdownTitle('# Tool\n\nText.\n\n## Usage\n\nMore.\n\n# License\n\nMIT\n')).toBe('Tool');
  });
});
