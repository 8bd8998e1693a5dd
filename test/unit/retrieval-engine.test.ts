import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/server/engines/retrieval/chunker.js';
import { collapseRepeats } from '../../src/server/engines/retrieval/index.js';
import { ftsQuery, searchWords, keywords } from '../../src/server/engines/retrieval/fts-query.js';
import { analyzeQuery, queryTopics } from '../../src/server/engines/query-analysis.js';
import { comparedSubjects } from '../../src/server/engines/answer-intent.js';
import { extractiveAnswer } from '../../src/server/engines/grounded-writer.js';
import { snippetOf } from '../../src/server/services/resource-rows.js';

describe('chunker', () => {
  it('keeps headings as chunk titles and never mixes two sections', () => {
    const chunks = chunkText(
      '# Guide\n\nIntro text here.\n\n## Setup\n\nInstall it.\n\nConfigure it.\n\n## Usage\n\nRun it.',
      { defaultTitle: 'Doc' },
    );
    expect(chunks.map((c) => [c.title, c.content])).toEqual([
      ['Guide', 'Intro text here.'],
      ['Setup', 'Install it.\n\nConfigure it.'],
      ['Usage', 'Run it.'],
    ]);
  });

  it('splits long text into bounded chunks', () => {
    const long = Array.from({ length: 100 }, (_, i) => `Sentence number ${i} has some words in it.`).join(' ');
    const chunks = chunkText(long);
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) expect(c.content.split(/\s+/).length).toBeLessThanOrEqual(220);
    expect(chunks.map((c) => c.content).join(' ')).toBe(long);
  });

  it("never ends a chunk on a man page's option: the option opens the chunk with what it does", () => {
    const flags = 'abcdefghijklmnop'.split('').map((c) => `-${c}`);
    const options = flags.map(
      (flag, i) =>
        `**\\${flag}** _number_\n\nSpecifies ${'the size of every page that is written '.repeat(1 + (i % 4))}here.`,
    );
    const chunks = chunkText(`## OPTIONS\n\n${options.join('\n\n')}`);
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) expect(c.content).not.toMatch(/\*\*\\?-\w\*\* _number_$/);
    // Every option is still there, once, followed by its description.
    const all = chunks.map((c) => c.content).join('\n\n');
    for (const flag of flags) expect(all.split(`**${flag}** _number_\n\nSpecifies the size`)).toHaveLength(2);
  });
});

describe('collapseRepeats', () => {
  it('keeps each text once, the first, and with a limit stops at that many', () => {
    const hits = ['**Fast** logger', 'Fast   logger', 'Other text', 'Third text', 'Fourth text'].map((content, i) => ({
      i,
      content,
    }));
    expect(collapseRepeats(hits).map((h) => h.i)).toEqual([0, 2, 3, 4]);
    expect(collapseRepeats(hits, 2).map((h) => h.i)).toEqual([0, 2]);
    // Keyed again from the cache: the same answer.
    expect(collapseRepeats(hits, 3).map((h) => h.i)).toEqual([0, 2, 3]);
  });
});

describe('FTS query building', () => {
  it('quotes keywords so user text is never FTS syntax, and drops stop words', () => {
    expect(keywords('What is the "capital" OF Freedonia? NEAR(x)')).toEqual(['capital', 'freedonia', 'near']);
    // Single letters are searched as words ("-k", "plan B"), quoted like the rest.
    expect(ftsQuery('capital AND "x" OR y*')).toBe('"capital" OR "x" OR "y"');
    expect(searchWords('What does the -k option of gzip do? A 9.x thing')).toEqual([
      'option',
      'gzip',
      'thing',
      '9',
      'k',
      'x',
    ]);
    expect(ftsQuery('lava" fields*')).toBe('"lava" OR "fields"');
    expect(ftsQuery('the of a')).toBeNull();
  });

  // The segmenter splits 许可证 into 许可 and 证: read word by word, the glossary never saw it.
  it("searches a glossary word's English term wherever the question writes it: 许可证 as license", () => {
    expect(searchWords('debug 是什么许可证？')).toContain('license');
    expect(searchWords('インストール方法')).toContain('install');
    // A dotted name is searched whole too (PostgreSQL reads it as one token); a file or site name is its words.
    expect(searchWords('LunarCalendar.solarToLunar 的作用是什么？')).toContain('lunarcalendar.solartolunar');
    expect(searchWords('Which Node.js version, and what is in nsswitch.conf?')).not.toContain('node.js');
    expect(searchWords('Which Node.js version, and what is in nsswitch.conf?')).not.toContain('nsswitch.conf');
  });
});

describe('query analysis', () => {
  it('gives the whole question and one query per part', () => {
    expect(analyzeQuery('What is the capital of Freedonia and what does its economy depend on?')).toEqual([
      'capital freedonia economy depend',
      'capital freedonia',
      'economy depend',
    ]);
  });

  it('splits no name joined by "and" or "or" with hyphens', () => {
    // Split at its "and", the name's words outweighed "license" in every part but the last.
    expect(analyzeQuery('What is the license of textlint-rule-no-mixed-zenkaku-and-hankaku-alphabet?')).toEqual([
      'license textlint rule no mixed zenkaku hankaku alphabet',
    ]);
    expect(comparedSubjects('Compare rock-or-paper and scissors')).toEqual(['rock-or-paper', 'scissors']);
    expect(queryTopics('Make a deck about salt-and-pepper shakers and mills')).toEqual([
      'salt-and-pepper shakers',
      'mills',
    ]);
  });

  it('adds the thread context to a short follow-up', () => {
    expect(analyzeQuery('And its population?', ['What is the capital of Freedonia?'])[0]).toBe(
      'population capital freedonia',
    );
  });

  it('a later part that only names a subject asks what the first part asks of it', () => {
    expect(analyzeQuery('How do I install p-limit and concurrently?')).toEqual([
      'install limit concurrently p',
      'install limit p',
      'install concurrently',
    ]);
    // A part asking its own question, or setting a scene, is searched as it is.
    expect(analyzeQuery('When was 7.x released and when did its LTS end?').at(-1)).toBe('lts end');
    expect(analyzeQuery('How do I count how many times -v is passed, with arg?').at(-1)).toBe('arg');
  });

  // A lone "i" is a stop word: "%i" was searched as nothing, and stat's entry never found.
  it('searches a format directive as written, as it does a one-letter option', () => {
    expect(analyzeQuery("What does %i mean in stat's format?")[0]).toBe('mean stat format %i meant');
    expect(analyzeQuery('What does sort -i do?')[0]).toBe('sort -i');
  });
});

describe('extractive writer', () => {
  it('answers with matching sentences and their markers, deterministically', () => {
    const passages = [
      { ref: 1, title: 'A', link: '', content: 'Fredville is the capital of Freedonia. It rains a lot.' },
      { ref: 2, title: 'B', link: '', content: 'Cheese is exported from Freedonia in large amounts.' },
    ];
    const a = extractiveAnswer({ query: 'capital of Freedonia', passages, history: [] });
    // The cheese sentence matches only "Freedonia": less than half as well as the best, so beside the point.
    expect(a).toBe('According to your sources: Fredville is the capital of Freedonia. [1]');
    expect(extractiveAnswer({ query: 'capital of Freedonia', passages, history: [] })).toBe(a);
    expect(extractiveAnswer({ query: 'anything', passages: [], history: [] })).toMatch(/found nothing/);
  });
});

describe('snippets', () => {
  it('takes the first 2000 bytes without splitting a character', () => {
    expect(Buffer.byteLength(snippetOf('é'.repeat(1500)))).toBe(2000);
    expect(Buffer.byteLength(snippetOf('a' + 'é'.repeat(1500)))).toBe(1999);
    expect(snippetOf('short')).toBe('short');
  });
});
