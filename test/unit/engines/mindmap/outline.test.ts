import { describe, expect, it } from 'vitest';
import {
  parseOutline,
  toMarkdown,
  normalizeTree,
  TREE_LIMITS,
  type MindNode,
} from '../../../../src/server/engines/mindmap/tree.js';
import { extractiveOutline, topicOf } from '../../../../src/server/engines/outline-writer.js';

const texts = (n: MindNode): unknown => (n.children.length ? { [n.text]: n.children.map(texts) } : n.text);

describe('parseOutline', () => {
  it('reads headings and nested bullets of any indentation', () => {
    const md =
      '# Topic\n\n## Branch A\n- point 1\n    - sub 1\n    - sub 2\n- point 2\n## Branch B\n1. first\n2) second\n';
    expect(texts(parseOutline(md, 'x'))).toEqual({
      Topic: [{ 'Branch A': [{ 'point 1': ['sub 1', 'sub 2'] }, 'point 2'] }, { 'Branch B': ['first', 'second'] }],
    });
  });

  it('puts several top-level items under the fallback root, and strips inline Markdown and citations', () => {
    const md = '```markdown\n- **Alpha** [1]\n  - see [the docs](http://x)\n- `Beta`\n```';
    expect(texts(parseOutline(md, 'My query'))).toEqual({ 'My query': [{ Alpha: ['see the docs'] }, 'Beta'] });
  });

  it('round-trips through its own Markdown', () => {
    const tree = parseOutline('# T\n## A\n- a1\n  - a11\n## B\n', 'x');
    expect(parseOutline(toMarkdown(tree), 'y')).toEqual(tree);
  });

  it('bounds depth, size and label length', () => {
    let deep: MindNode = { text: 'leaf', children: [] };
    for (let i = 0; i < 12; i++) deep = { text: `d${i}`, children: [deep] };
    const depthOf = (n: MindNode): number => 1 + Math.max(0, ...n.children.map(depthOf));
    expect(depthOf(normalizeTree(deep))).toBe(TREE_LIMITS.maxDepth);
    const wide = normalizeTree({
      text: 'r',
      children: Array.from({ length: 1000 }, (_, i) => ({ text: `n${i} ${'word '.repeat(60)}`, children: [] })),
    });
    expect(wide.children.length).toBe(TREE_LIMITS.maxNodes - 1);
    expect([...wide.children[0].text].length).toBeLessThanOrEqual(TREE_LIMITS.maxLabel);
    expect(wide.children[0].text.endsWith('…')).toBe(true);
  });
});

describe('the local outline writer', () => {
  const passages = [
    {
      title: 'Storage',
      content:
        'Batteries smooth the daily peak of solar output. Common storage options are lithium-ion batteries, pumped hydro, flow batteries and green hydrogen.',
    },
    {
      title: 'Wind power',
      content: 'Offshore wind turbines reach capacity factors above 50%. Turbine blades are hard to recycle.',
    },
    { title: 'Storage', content: 'Storage prices fell sharply in the last decade.' },
  ];

  it('builds the tree from the passages: titles become branches, sentences points, lists sub-points', () => {
    const tree = parseOutline(
      extractiveOutline({ query: 'Make a mind map about energy storage and wind', passages }),
      'x',
    );
    expect(tree.text).toBe('Energy storage and wind');
    expect(tree.children.map((c) => c.text)).toEqual(['Storage', 'Wind power']);
    const storage = tree.children[0];
    expect(storage.children.map((c) => c.text)).toContain('Batteries smooth the daily peak of solar output');
    const list = storage.children.find((c) => c.text === 'Common storage options')!;
    expect(list.children.map((c) => c.text)).toEqual([
      'lithium-ion batteries',
      'pumped hydro',
      'flow batteries',
      'green hydrogen',
    ]);
    expect(storage.children.map((c) => c.text)).toContain('Storage prices fell sharply in the last decade');
  });

  it('shows a long heading whole, not cut with an ellipsis (winston README)', () => {
    const title = 'Routing Console transport messages to the console instead of stdout and stderr';
    const md = extractiveOutline({
      query: 'winston transports',
      passages: [{ title, content: 'By default the Console transport writes messages to stdout and stderr.' }],
    });
    expect(md).toContain(title);
    expect(md).not.toContain('…');
  });

  it('is a pure function of its input', () => {
    const req = { query: 'wind', passages };
    expect(extractiveOutline(req)).toBe(extractiveOutline(JSON.parse(JSON.stringify(req))));
  });

  it('without sources maps the parts of the question and says what is missing, inventing nothing', () => {
    const tree = parseOutline(extractiveOutline({ query: 'pricing, onboarding and churn', passages: [] }), 'x');
    expect(tree.children.map((c) => c.text)).toEqual(['Pricing', 'Onboarding', 'Churn']);
    expect(tree.children[0].children[0].text).toMatch(/No source in this LiveDoc covers "pricing"/);
  });

  it('takes the topic from the request', () => {
    expect(topicOf('create a mindmap of the French revolution?')).toBe('The French revolution');
    expect(topicOf('x'.repeat(300)).length).toBeLessThanOrEqual(121);
  });

  it('the title is the whole subject, never cut at its first comma (issue 45)', () => {
    expect(topicOf('pdftoppm: options, exit codes and defaults')).toBe('Pdftoppm: options, exit codes and defaults');
    // A name written with marks keeps its case: "Quick-lru" is no package.
    expect(topicOf('quick-lru options and methods')).toBe('quick-lru options and methods');
    const long = `Make a mindmap of ${'gzip options, '.repeat(12)}and more`;
    const title = topicOf(long);
    expect(title.endsWith('…')).toBe(true);
    expect(title).toMatch(/^Gzip options, gzip options, /);
    expect(title.length).toBeLessThanOrEqual(121);
  });
});

describe('definitions keep their terms (issue 45)', () => {
  it("a man page's option is a point led by the option, never its description alone", () => {
    const md = [
      '## OPTIONS',
      '',
      '**\\-r number**',
      '',
      'Specifies the X and Y resolution of the map, default 150 DPI. The option applies to every page.',
      '',
      '**\\-q --quiet**',
      '',
      'Suppresses all warnings about the map resolution and the options.',
    ].join('\n');
    const out = extractiveOutline({ query: 'map options and resolution', passages: [{ title: 'man', content: md }] });
    expect(out).toContain('**-r number** — Specifies the X and Y resolution of the map, default 150 DPI');
    expect(out).not.toMatch(/^- Specifies the X and Y resolution/m);
    expect(out).not.toContain('The option applies to every page');
  });

  it('an option whose description must be shortened keeps its description, not the option alone', () => {
    const md = [
      '## OPTIONS',
      '',
      '**\\-jpegopt** _jpeg-options_',
      '',
      'When used with -jpeg, takes a list of options to control the jpeg compression. See JPEG OPTIONS for the available options.',
    ].join('\n');
    const out = extractiveOutline({ query: 'pdftoppm options', passages: [{ title: 'man', content: md }] });
    expect(out).not.toMatch(/^\s*- \*\*-jpegopt\*\* _jpeg-options_$/m);
    expect(out).toContain(
      '**-jpegopt** _jpeg-options_ — When used with -jpeg, takes a list of options to control the jpeg compression',
    );
  });
});

describe('a branch the question names that lists definitions', () => {
  it("shows up to eight of a man page's options, each with its flag, not four", () => {
    const flags = ['-a', '-b', '-c', '-d', '-e', '-f', '-g', '-h', '-i', '-j'];
    const md = [
      '## OPTIONS',
      '',
      ...flags.flatMap((f, i) => [
        `**\\${f}**`,
        '',
        `Sets the mode number ${i} of the archive tool for every file.`,
        '',
      ]),
      '## BUGS',
      '',
      'The archive tool reports options it does not know.',
    ].join('\n');
    const out = extractiveOutline({ query: 'archive tool options', passages: [{ title: 'tool', content: md }] });
    const options = out.split('\n').filter((l) => /^\s*- \*\*-[a-j]\*\* — Sets the mode number/.test(l));
    expect(options).toHaveLength(8);
  });
});

describe('a point is one line of the outline', () => {
  it('a list item of two paragraphs (a hard break in its Markdown) is one point, never a line ending in a backslash', () => {
    const md = [
      '## 使用示例',
      '',
      '-   分词并获取拼音，更多配置请查看[segment API](https://pinyin-pro.cn/use/segment.html)',
      '',
      '    点击展开 segment 基础使用示例',
      '',
      '-   获取带汉字拼音的 HTML 字符串，更多配置请查看[html API](https://pinyin-pro.cn/use/html.html)',
      '',
      '    点击展开 HTML 字符串示例',
    ].join('\n');
    const out = extractiveOutline({ query: 'pinyin-pro 使用示例', passages: [{ title: 'pinyin-pro', content: md }] });
    expect(out).not.toMatch(/\\$/m);
    expect(out).not.toMatch(/^点击展开/m);
    expect(out).toContain(
      '- 分词并获取拼音，更多配置请查看[segment API](https://pinyin-pro.cn/use/segment.html) 点击展开 segment 基础使用示例\n',
    );
  });
});

describe('a map whose question names a source', () => {
  // Session 77: "ora options" drew boxen's `height` among ora's sections, after its own topics.
  it("draws every branch from that source's sections, not another's of the same words", () => {
    const passages = [
      { title: 'ora-readme', content: '### options\n\n#### text\n\nThe text to display next to the spinner.' },
      { title: 'boxen-readme', content: '### options\n\n#### height\n\nSet a fixed height for the box.' },
      { title: 'ora-readme', content: '#### spinner\n\nThe name of one of the provided spinners.' },
    ];
    const out = extractiveOutline({ query: 'ora options', passages });
    expect(out).toContain('The text to display next to the spinner');
    expect(out).toContain('The name of one of the provided spinners');
    expect(out).not.toContain('height');
  });
});
