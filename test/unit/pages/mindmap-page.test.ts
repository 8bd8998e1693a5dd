import { HtmlValidate } from 'html-validate';
import { describe, expect, it } from 'vitest';
import { mindmapHtml } from '../../../src/server/pages/mindmap-page.js';
import { parseOutline, renderSvg } from '../../../src/server/engines/mindmap/index.js';

describe('the mindmap page', () => {
  const svg = renderSvg(parseOutline('# Tom & Jerry <script>\n## Cat\n- "chase"', 'q'), 'MIND_MAP').svg;
  const html = mindmapHtml({
    title: 'Tom & Jerry <script>',
    svg,
    layouts: [
      { label: 'Mind map', href: '/mindmaps/r?layout=MIND_MAP&expires=1&sig=a', current: true },
      { label: 'Timeline', href: '/mindmaps/r?layout=TIMELINE&expires=1&sig=a', current: false },
    ],
    downloads: [{ label: 'PNG', href: '/mindmaps/r?layout=MIND_MAP&format=png&expires=1&sig=a' }],
  });

  it('is valid HTML, self-contained (no script, no outside asset), with the labels escaped', async () => {
    const report = await new HtmlValidate().validateString(html);
    expect(report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId}: ${m.message}`))).toEqual([]);
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    expect(html).toContain('Tom &amp; Jerry &lt;script&gt;');
    expect(html).toContain('href="/mindmaps/r?layout=TIMELINE&amp;expires=1&amp;sig=a"');
    expect(html).toContain('aria-current="page"');
  });
});
