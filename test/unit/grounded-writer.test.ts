import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractiveAnswer } from '../../src/server/engines/grounded-writer.js';
import { alignCitations, renumberingStream } from '../../src/server/engines/citations.js';
import { htmlToMarkdown } from '../../src/server/engines/extract/html.js';

const fox = [{ ref: 1, title: 'Fox', link: '', content: 'The red fox hunts at dawn and dusk. It lives in dens.' }];

describe('the extractive grounded writer', () => {
  it('keeps short sentences and matches word forms (live / lives) like the index does', () => {
    expect(extractiveAnswer({ query: 'Where does the fox live?', passages: fox, history: [] })).toContain(
      'It lives in dens. [1]',
    );
  });

  it('is deterministic', () => {
    const a = extractiveAnswer({ query: 'When does the fox hunt?', passages: fox, history: [] });
    expect(extractiveAnswer({ query: 'When does the fox hunt?', passages: fox, history: [] })).toBe(a);
    expect(a).toContain('The red fox hunts at dawn and dusk. [1]');
  });
});

// Session 72: kleur's History sentence about versions outranked its benchmarks' "Using Node v10.13.0".
it('a question asking which version is answered by the unit stating one', () => {
  const readme = readFileSync(path.resolve(import.meta.dirname, '../fixtures/real-docs/kleur-readme.md'), 'utf8');
  const kleur = { ref: 1, title: 'kleur-readme', link: '', content: readme };
  expect(
    extractiveAnswer({
      query: 'What Node version were the kleur benchmarks run with?',
      passages: [kleur],
      history: [],
    }),
  ).toBe('According to your sources: Using Node v10.13.0. [1]');
});

// Session 72: Day.js's "访问 day.js.org 网站查看更详细的文档", without a full stop, brought the install
// command of the next section, as if cut off mid-clause.
it('a sentence ending its section leads into nothing of the next one', () => {
  const readme = {
    ref: 1,
    title: 'dates',
    link: '',
    content:
      '## Documentation\n\nVisit the website for the full documentation of every function\n\n## Install\n\n```\nnpm install dates --save\n```',
  };
  expect(extractiveAnswer({ query: 'Where is the full documentation?', passages: [readme], history: [] })).toBe(
    'According to your sources: Visit the website for the full documentation of every function. [1]',
  );
});

describe('answer forms and citations', () => {
  const policy = {
    ref: 1,
    title: 'Refund policy',
    link: '',
    content:
      '## Refund times\n\nRefunds go back to the original payment method.\n\n| Method | Money back |\n| --- | --- |\n| Card | 3 to 5 days |\n| PayPal | 1 day |',
  };
  const copy = { ...policy, ref: 2, title: 'Refund policy (copy)' };

  it('says a sentence two sources share once, citing the first', () => {
    const a = extractiveAnswer({ query: 'Where do refunds go?', passages: [policy, copy], history: [] });
    expect(a.match(/Refunds go back to the original payment method/g)).toHaveLength(1);
    expect(a).not.toMatch(/\[2\]/);
  });

  it('answers a figure question with the row the question names, under its header', () => {
    const a = extractiveAnswer({ query: 'How long does a PayPal refund take?', passages: [policy], history: [] });
    expect(a).toBe('| Method | Money back |\n| --- | --- |\n| PayPal | 1 day |\n\n[1]');
  });

  it('a summary question over passages that do not hold its words still summarises', () => {
    const a = extractiveAnswer({ query: 'Summarise this', passages: [policy], history: [] });
    expect(a).toBe('In short:\n\n- Refunds go back to the original payment method. [1]');
  });
});

describe('alignCitations', () => {
  it('renumbers the cited sources 1..k in citation order, drops uncited ones and markers past the list', () => {
    const sources = ['a', 'b', 'c'];
    expect(alignCitations('C says so [3]. A agrees [1][1]. Nobody said [9].', sources)).toEqual({
      text: 'C says so [1]. A agrees [2]. Nobody said.',
      sources: ['c', 'a'],
    });
    expect(alignCitations('No citations here.', sources)).toEqual({ text: 'No citations here.', sources: [] });
  });
});

describe('renumberingStream', () => {
  it('numbers markers from [1] in order of first citation as they stream, a marker cut between pieces included', () => {
    const stream = renumberingStream(3);
    const pieces = ['C says so [', '3]. A agrees [1', ']. See [lin', 'k][2](https://x.test) and [3]', '.'];
    const out = pieces.map((p) => stream.push(p)).join('') + stream.end();
    expect(out).toBe('C says so [1]. A agrees [2]. See [link][2](https://x.test) and [1].');
    expect(stream.cited()).toEqual([3, 1]);
  });

  it('gives back the same text as alignCitations for any cut of an answer (property)', () => {
    const answer = 'Water boils at 100 °C [2], tea at 80 °C [3]. [2] again, [9] nowhere.';
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: answer.length }), { maxLength: 6 }), (cuts) => {
        const at = [0, ...[...cuts].sort((a, b) => a - b), answer.length];
        const stream = renumberingStream(3);
        const out =
          at
            .slice(1)
            .map((end, i) => stream.push(answer.slice(at[i], end)))
            .join('') + stream.end();
        expect(out).toBe('Water boils at 100 °C [1], tea at 80 °C [2]. [1] again, [9] nowhere.');
      }),
    );
  });
});

describe('answers from real documents (issue 37)', () => {
  const debug = {
    ref: 1,
    title: 'debug',
    link: '',
    content:
      '## Wildcards\n\nThe `*` character may be used as a wildcard. Instead of listing all three with\n`DEBUG=connect:bodyParser,connect:compress`, you may simply do `DEBUG=connect:*`, or to run everything using this module simply use `DEBUG=*`.',
  };
  const lts = {
    ref: 1,
    title: 'Pino Long Term Support',
    link: '',
    content:
      '## Schedule\n\n| Version | Release Date | End Of LTS Date | Node.js |\n| :-- | :-- | :-- | :-- |\n| 9.x | 2024-04-26 | TBD | 18, 20, 22 |\n| 8.x | 2022-06-01 | 2024-10-26 | 14, 16, 18, 20 |\n| 7.x | 2021-10-14 | 2023-06-01 | 12, 14, 16 |\n\nA "month" is defined as 30 consecutive days.',
  };
  const bench = {
    ref: 1,
    title: 'Benchmarks',
    link: '',
    content:
      '# Benchmarks\n\n```\nBASIC benchmark averages\nBunyan average: 377.434ms\nWinston average: 270.249ms\nPino average: 114.801ms\n```',
  };
  const ask = (query: string, ...passages: (typeof lts)[]) => extractiveAnswer({ query, passages, history: [] });

  it('quotes a command exactly, as code: `DEBUG=*` keeps its star', () => {
    const a = ask('How do I run everything with debug?', debug);
    expect(a).toContain('`DEBUG=*`');
    expect(a).toContain('`DEBUG=connect:*`');
  });

  it('answers a table fact from its cell: the row the question names, the column it asks for', () => {
    expect(ask('When does LTS end for pino 8.x?', lts)).toBe('For 8.x, End Of LTS Date: 2024-10-26. [1]');
  });

  it('answers each part of a question, in order', () => {
    expect(ask('When was pino 7.x released and when did its LTS end?', lts)).toBe(
      'For 7.x, Release Date: 2021-10-14. [1]\n\nFor 7.x, End Of LTS Date: 2023-06-01. [1]',
    );
  });

  it('compares figures in program output line by line, naming each subject', () => {
    const a = ask("What is Pino's BASIC benchmark average compared with Winston's?", bench);
    expect(a).toContain('`Pino average: 114.801ms`');
    expect(a).toContain('`Winston average: 270.249ms`');
    expect(a).not.toMatch(/say nothing/);
  });

  it('says the sources do not cover a question they do not, and what they are about', () => {
    const a = ask('What does the Team plan cost per month?', lts, { ...debug, ref: 2 });
    expect(a).toMatch(/^Your sources do not cover this question\./);
    expect(a).toContain('Pino Long Term Support');
    expect(a).not.toMatch(/\[\d\]/);
  });

  it('answers a Chinese question in a Chinese frame, the facts quoted from the source', () => {
    const zh = {
      ref: 1,
      title: 'pinyin-pro',
      link: '',
      content: '## 竞品对比\n\n| 对比项 | pinyin | pinyin-pro |\n| --- | --- | --- |\n| 准确率 | 94.097% | 99.846% |',
    };
    const a = ask('pinyin-pro 的准确率是多少？', zh);
    expect(a).toMatch(/^根据你的资料/);
    // The column it names most fully ("pinyin-pro", not "pinyin"), its cell quoted as written.
    expect(a).toContain('准确率 的 pinyin-pro 是 99.846%');
    expect(a).not.toContain('94.097%');
    expect(ask('Kubernetes 中如何设置资源配额？', zh)).toMatch(/^你的资料没有涉及这个问题。/);
  });
});

describe('on a real README (debug, bench/content)', () => {
  // Its sections as retrieval hands them over: "## heading" then the section's text.
  const readme = readFileSync(path.resolve(import.meta.dirname, '../../bench/content/docs/debug-readme.md'), 'utf8');
  const section = (heading: string, ref: number) => {
    const start = readme.indexOf(`\n## ${heading}\n`);
    const end = readme.indexOf('\n## ', start + 4);
    return { ref, title: 'debug', link: '', content: readme.slice(start + 1, end) };
  };

  it('answers from a table row the question names, never with a wildcard rule', () => {
    const passages = [section('Environment Variables', 1), section('Wildcards', 1)];
    const a = extractiveAnswer({
      query: 'Which environment variable hides the date from debug output?',
      passages,
      history: [],
    });
    expect(a).toContain('DEBUG_HIDE_DATE');
  });

  it('quotes a comment of a long code block with the code it describes, never alone', () => {
    const passages = [section('Output streams', 1), section('Wildcards', 1)];
    const a = extractiveAnswer({
      query: 'How do I override all per-namespace log settings of debug?',
      passages,
      history: [],
    });
    expect(a).not.toMatch(/^`\/\/[^`\n]*` \[1\]$/m);
    expect(a).toContain(
      '// set all output to go via console.info\n// overrides all per-namespace log settings\ndebug.log = console.info.bind(console);',
    );
  });
});

describe('nothing said twice', () => {
  it('a sentence is not said again as the lead-in of the code after it (debug README)', () => {
    const readme = readFileSync(path.resolve(import.meta.dirname, '../../bench/content/docs/debug-readme.md'), 'utf8');
    const a = extractiveAnswer({
      query: 'How do I set the DEBUG variable on the Windows command prompt (CMD)?',
      passages: [{ ref: 1, title: 'debug', link: '', content: readme }],
      history: [],
    });
    expect(a.match(/On Windows the environment variable is set using the/g)).toHaveLength(1);
    expect(a).toContain('set DEBUG=*,-not_this');
  });

  it("a definition's first sentence is not said before the whole definition (gzip man page)", () => {
    const md = htmlToMarkdown(
      readFileSync(path.resolve(import.meta.dirname, '../../bench/content/docs/gzip-man.html'), 'utf8'),
    );
    const a = extractiveAnswer({
      query: 'Which option of gzip is described as "write output on standard output"?',
      passages: [{ ref: 1, title: 'gzip', link: '', content: md }],
      history: [],
    });
    expect(a.match(/Write output on standard output/g)).toHaveLength(1);
    expect(a).toContain('--stdout');
  });
});

describe('on a man page rendered by groff (gzip, bench/content dev)', () => {
  const md = htmlToMarkdown(
    readFileSync(path.resolve(import.meta.dirname, '../../bench/content/docs/gzip-man.html'), 'utf8'),
  );
  const passages = [{ ref: 1, title: 'gzip', link: '', content: md }];
  const ask = (query: string) => extractiveAnswer({ query, passages, history: [] });

  it('answers an option with its default, under the option', () => {
    const a = ask("What is gzip's default compression level?");
    expect(a).toContain('**-# --fast --best**: The default compression level is **-6**');
    expect(a.length).toBeLessThan(600);
  });

  it('answers an exit status with its number', () => {
    expect(ask('What exit status does gzip return when a warning occurs?')).toContain('exit status is 2');
  });

  it('compares two options of one entry without saying the entry twice', () => {
    const a = ask("Compare gzip's --fast and --best options.");
    expect(a.match(/Regulate the speed of compression/g)).toHaveLength(1);
    expect(a).toContain('--best');
    // The owner named first is the second subject's too, with gzip the only source retrieved.
    expect(a).toContain("- **gzip's --best options**:");
  });
});

describe('man-page options and exit codes on a generated page', () => {
  // Options the way groff writes them: a short and a long flag, described below; exit codes bare.
  const options: Array<[string, string, string]> = [
    ['s', 'stable', 'stabilize the order by disabling the last comparison'],
    ['S', 'buffer-size', 'use SIZE for the main memory buffer'],
    ['d', 'dictionary-order', 'consider only blanks and letters'],
    ['k', 'keep', 'keep the input files'],
    ['z', 'zero-terminated', 'end lines with NUL'],
  ];
  const md = [
    '## DESCRIPTION',
    '',
    'Write sorted lines to standard output. The compressor is called with **-d** to decompress.',
    '',
    ...options.flatMap(([short, long, what]) => [`**-${short}**, **--${long}**`, '', what, '']),
    '## EXIT CODES',
    '',
    ...['No error.', 'Error opening a file.', 'Error opening an output file.'].flatMap((what, i) => [
      String(i),
      '',
      what,
      '',
    ]),
  ].join('\n');
  const passages = [{ ref: 1, title: 'tool', link: '', content: md }];
  const ask = (query: string) => extractiveAnswer({ query, passages, history: [] });

  it('answers "what does -x do" with the option its term names, in its case', () => {
    for (const [short, long, what] of options) {
      const a = ask(`What does the -${short} option of tool do?`);
      expect(a).toContain(`**-${short}**, **--${long}**: ${what}`);
      expect(a.length).toBeLessThan(200);
    }
  });

  it('answers an exit code from its bare number', () => {
    expect(ask('What does exit code 2 mean for tool?')).toContain('2: Error opening an output file.');
  });
});

describe('a term the question names is what it asks about', () => {
  it('"what is after" is answered by the entry whose term is `after`, not by prose using the word', () => {
    // The list's passage starts mid-section (a chunk), so only its term ties it to the question.
    const list = [
      'The positions in order displayed are:',
      '',
      '- `beforeAll`: add to the program for a global banner or header',
      '- `before`: display extra information before built-in help',
      '- `after`: display extra information following built-in help',
      '- `afterAll`: add to the program for a global footer (epilog)',
    ].join('\n');
    const groups = '## Help groups\n\nThe help lists options under the heading `Options:`, and commands after them.';
    const a = extractiveAnswer({
      query: 'In the README, what is after (under "Custom help")?',
      passages: [
        { ref: 1, title: 'Commander.js', link: '', content: groups },
        { ref: 1, title: 'Commander.js', link: '', content: list },
      ],
      history: [],
    });
    expect(a).toContain('`after`: display extra information following built-in help');
  });
});

describe('a plain-text FAQ and a comparison answered with a block', () => {
  it("a question the source asks is answered with the source's next paragraph", () => {
    const faq = [
      '```',
      '1.1. How do you pronounce "Valgrind"? ',
      'The "Val" as in the word "value". The "grind" is pronounced with a short ',
      '\'i\' -- ie. "grinned" rather than "grined". ',
      '',
      '1.2. Where does the name "Valgrind" come from? ',
      'From Nordic mythology. Originally the project was named ',
      'Heimdall, after the watchman of the Nordic gods. ',
      '```',
    ].join('\n');
    const a = extractiveAnswer({
      query: 'Where does the name Valgrind come from?',
      passages: [{ ref: 1, title: 'valgrind-faq', link: '', content: faq }],
      history: [],
    });
    expect(a).toContain(
      'From Nordic mythology. Originally the project was named Heimdall, after the watchman of the Nordic gods. [1]',
    );
    expect(a).not.toContain('```');
    expect(a).not.toContain('pronounce');
  });

  it('a compared subject answered with a code block is named above the block, so the fence opens on its own line', () => {
    const content = [
      '## Options',
      '',
      '```',
      'nocase      boolean    false',
      'windows     boolean    false',
      '```',
    ].join('\n');
    const a = extractiveAnswer({
      query: 'Compare the nocase and windows options.',
      passages: [{ ref: 1, title: 'picomatch', link: '', content }],
      history: [],
    });
    for (const line of a.split('\n')) if (line.includes('```')) expect(line).toMatch(/^```/);
  });
});

describe('a name one source states does not let another answer', () => {
  it('TLS named by a proxy README does not make the PostgreSQL users page answer a TLS question', () => {
    const users = {
      ref: 1,
      title: 'Users and Groups in the Debian System',
      link: '',
      content:
        '## postgres\n\nThe PostgreSQL server is configured in /etc/postgresql, and its databases are owned by this user and group.',
    };
    const proxy = {
      ref: 2,
      title: 'proxy',
      link: '',
      content: '## Features\n\nThe proxy terminates TLS for its upstreams and reloads its settings on a signal.',
    };
    const a = extractiveAnswer({
      query: 'How do I configure TLS certificates for a PostgreSQL server?',
      passages: [users, proxy],
      history: [],
    });
    expect(a).toMatch(/^Your sources do not cover this question/);
  });
});

describe('"not covered" when the question names what no source states', () => {
  const errors = {
    ref: 1,
    title: 'http-errors',
    link: '',
    content: [
      '## List of all constructors',
      '',
      '| Status Code | Constructor Name |',
      '| --- | --- |',
      ...[
        [400, 'BadRequest'],
        [404, 'NotFound'],
        [418, 'ImATeapot'],
        [500, 'InternalServerError'],
      ].map(([code, name]) => `| ${code} | ${name} |`),
      '',
      '## Options',
      '',
      'The `--verbose` flag prints each status as it is created. The package runs under Node.js.',
    ].join('\n'),
  };
  const ask = (query: string) => extractiveAnswer({ query, passages: [errors], history: [] });

  it('a status code, a flag, a version or a name no unit holds: not covered, though its other words match', () => {
    for (const q of [
      'Which http-errors constructor corresponds to status code 599?',
      'What does the --sparse flag of http-errors print?',
      'Which constructor does http-errors 11.x add?',
      'How do I create each status constructor of http-errors from Rust?',
    ])
      expect(ask(q)).toMatch(/^Your sources do not cover this question\./);
  });

  it('the same questions about what the source holds are answered, filler words missing or not', () => {
    expect(ask('Which http-errors constructor corresponds to status code 418?')).toContain('ImATeapot');
    expect(ask('What does the --verbose flag of http-errors print?')).toContain('prints each status');
    // "the Constructor Name" after an article is a title-cased noun, not a name the source lacks.
    expect(ask('In the README, what is the Constructor Name for status code 404?')).toContain('NotFound');
  });
});

describe('a list question is listed from a list, not from a code block beside it', () => {
  const help = {
    ref: 1,
    title: 'Commander.js',
    link: '',
    content:
      "## Custom help\n\nYou can add extra text to be displayed along with the built-in help.\n\n```js\nprogram\n  .option('-f, --foo', 'enable some foo');\n\nprogram.addHelpText('after', 'Example call');\n```\n\nThe positions in order displayed are:\n\n- `beforeAll`: add to the program for a global banner or header\n- `before`: display extra information before built-in help\n- `after`: display extra information after built-in help\n- `afterAll`: add to the program for a global footer (epilog)",
  };
  const levels = {
    ref: 1,
    title: 'winston',
    link: '',
    content:
      '## Logging levels\n\nEach `level` is given a specific integer priority. The higher the priority the more important the message.\n\n`npm` logging levels are prioritized from 0 to 6 (highest to lowest):\n\n```js\n{\n  error: 0,\n  warn: 1,\n  info: 2,\n  silly: 6\n}\n```',
  };
  const ask = (query: string, passage: typeof help) => extractiveAnswer({ query, passages: [passage], history: [] });

  it('lists the items under a heading, not the example code under it', () => {
    const a = ask('List the items under "Custom help".', help);
    for (const item of ['beforeAll', 'before', 'after', 'afterAll']) expect(a).toContain(`\`${item}\``);
    expect(a).not.toContain('addHelpText');
  });

  it('lists named values written as code (a list in a code block)', () => {
    const a = ask("List winston's npm logging levels with their priorities.", levels);
    for (const level of ['error: 0', 'warn: 1', 'silly: 6']) expect(a).toContain(level);
  });
});

describe('a cell said as a sentence', () => {
  it('ends with one full stop when the cell ends with its own', () => {
    const bytes = {
      ref: 1,
      title: 'Bytes utility',
      link: '',
      content:
        "## bytes.format(number value, [options])\n\n| Property | Type | Description |\n| --- | --- | --- |\n| decimalPlaces | `number` | Maximum number of decimal places to include in output. Default value to `2`. |\n| unitSeparator | `string` | Separator to use between number and unit. Default value to `''`. |",
    };
    const a = extractiveAnswer({ query: 'What is the Description of unitSeparator?', passages: [bytes], history: [] });
    expect(a).toContain("Separator to use between number and unit. Default value to `''`. [1]");
    expect(a).not.toContain('..');
  });
});

describe('words pointing at the document', () => {
  it('are not what the sources must hold: "what command is given under Installation in the README"', () => {
    const readme = readFileSync(
      path.resolve(import.meta.dirname, '../../bench/content/docs/commander-readme.md'),
      'utf8',
    );
    const section = (heading: string, ref: number) => {
      const start = readme.indexOf(`\n## ${heading}\n`);
      return {
        ref,
        title: 'Commander.js',
        link: '',
        content: readme.slice(start + 1, readme.indexOf('\n## ', start + 4)),
      };
    };
    const a = extractiveAnswer({
      query: 'In the Commander.js README, what command is given under "Installation"?',
      passages: [section('Installation', 1), section('Commands', 1)],
      history: [],
    });
    expect(a).toContain('npm install commander');
  });
});

describe('one question asked of two sources', () => {
  const debug = {
    ref: 1,
    title: 'debug',
    link: '',
    content:
      '# debug\n\nA tiny JavaScript debugging utility.\n\n## Installation\n\n```bash\n$ npm install debug\n```\n\n## Usage\n\n`debug` exposes a function.',
  };
  const commander = {
    ref: 2,
    title: 'Commander.js',
    link: '',
    content:
      '# Commander.js\n\nThe complete solution for node.js command-line interfaces.\n\n## Installation\n\n```sh\nnpm install commander\n```\n\n## Options\n\nOptions are defined with the `.option()` method.',
  };
  it('answers it for each source the question names, in the form it asks for', () => {
    for (const q of ['How do I install debug and Commander?', '如何安装 debug 和 Commander？']) {
      const a = extractiveAnswer({ query: q, passages: [debug, commander], history: [] });
      expect(a).toContain('npm install debug');
      expect(a).toContain('npm install commander');
    }
  });

  // Its Chinese words other than the glossary's count as words the English sources do not hold: a
  // question naming debug asked nothing they say ("debug 是什么许可证" was answered `npm install debug`).
  it('a Chinese question about an English source that says nothing of it is not covered', () => {
    for (const q of ['debug 的作者是谁？', 'Commander 支持多线程吗？']) {
      const a = extractiveAnswer({ query: q, passages: [debug, commander], history: [] });
      expect(a).toMatch(/^你的资料没有涉及这个问题/);
      expect(a).not.toContain('npm install');
    }
  });

  it('a Chinese question asking how to use an English source is answered from its Usage section', () => {
    const a = extractiveAnswer({ query: '如何使用 debug？', passages: [debug, commander], history: [] });
    expect(a).toContain('`debug` exposes a function.');
  });
});

describe('alignCitations keeps the quoted text', () => {
  it('keeps the space before := (chat dropped it where ask kept it)', () => {
    const text = 'Caret ranges: `^0.2.3` := `>=0.2.3 <0.3.0-0` [2]. Unused [7].';
    expect(alignCitations(text, ['a', 'b']).text).toBe('Caret ranges: `^0.2.3` := `>=0.2.3 <0.3.0-0` [1]. Unused.');
  });
});

describe('a section the question names by its heading, in quotes', () => {
  const doc = (file: string, title: string) => ({
    ref: 1,
    title,
    link: '',
    content: readFileSync(path.resolve(import.meta.dirname, '../../bench/content', file), 'utf8'),
  });
  const ask = (query: string, passage: ReturnType<typeof doc>) =>
    extractiveAnswer({ query, passages: [passage], history: [] });

  it('lists the first list under it, not a list elsewhere that shares more words', () => {
    const a = ask(
      'List the items under "Custom help" in the Commander README.',
      doc('docs/commander-readme.md', 'Commander.js'),
    );
    for (const item of ['`beforeAll`', '`before`', '`after`', '`afterAll`']) expect(a).toContain(item);
  });

  it('gives the commands under it, in order, each under its lead-in', () => {
    const a = ask(
      'In the buffer README, what command is given under "Testing the project"?',
      doc('sources/buffer-readme.md', 'buffer'),
    );
    expect(a).toMatch(/First, install the project: \[1\]\n\n```\nnpm install\n```[\s\S]*npm run test-node/);
  });

  it('knows a heading quoted in corner brackets', () => {
    const a = ask(
      '在 pinyin-pro 中，「🧰 Monorepo 开发」用什么命令？',
      doc('sources/pinyin-pro-readme.md', 'pinyin-pro'),
    );
    expect(a).toContain('pnpm install');
  });
});

describe('a label that repeats the question', () => {
  it('is said with what follows it: a heading a PDF printed as a line, over its type, default and description', () => {
    const content = [
      '### Options Examples',
      '',
      'options.expandRange',
      '',
      'Type: function',
      '',
      'Default: undefined',
      '',
      'Custom function for expanding ranges in brace patterns.',
      '',
      'options.format',
      '',
      'Custom function for formatting the returned string.',
    ].join('\n');
    const a = extractiveAnswer({
      query: 'In the picomatch README, what does options.expandRange do?',
      passages: [{ ref: 1, title: 'picomatch', link: '', content }],
      history: [],
    });
    expect(a).toBe(
      'options.expandRange: Type: function. Default: undefined. Custom function for expanding ranges in brace patterns. [1]',
    );
  });
});

describe('a table without header text', () => {
  it('says its row as "name: what it is", not under an empty header', () => {
    const content = [
      'Options:',
      '',
      '|  |  |',
      '| --- | --- |',
      '| `options.random` | `Array` of 16 random bytes (0-255) |',
      '| `options.msecs` | RFC "timestamp" field |',
    ].join('\n');
    const a = extractiveAnswer({
      query: 'What is options.msecs?',
      passages: [{ ref: 1, title: 'uuid', link: '', content }],
      history: [],
    });
    expect(a).toBe('`options.msecs`: RFC "timestamp" field. [1]');
  });
});

describe("a section's properties and its description", () => {
  // picomatch's option sections, each "Type:", "Default:", then what the option does.
  const content = [
    '### options.onIgnore',
    '',
    'Type: `function`',
    '',
    'Default: `undefined`',
    '',
    'Function to be called on ignored items.',
    '',
    '### options.format',
    '',
    'Type: `function`',
    '',
    'Default: `undefined`',
    '',
    "Custom function for formatting strings before they're matched.",
  ].join('\n');
  const ask = (query: string) =>
    extractiveAnswer({ query, passages: [{ ref: 1, title: 'picomatch', link: '', content }], history: [] });

  // The second "Default: `undefined`" was dropped as a repeat of the first, another option's.
  it("says a property once per subject: each option's default is its own", () => {
    expect(ask('What is the default of options.format?')).toBe('For options.format, Default: `undefined`. [1]');
  });

  // Its "Type:" and "Default:" lines answered: they hold the option's name, its description did not.
  it('answers what a subject does with the paragraph after its properties', () => {
    expect(ask('What does options.format do?')).toBe(
      "`options.format`: Custom function for formatting strings before they're matched. [1]",
    );
  });
});
