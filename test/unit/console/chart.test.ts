import { describe, expect, it } from 'vitest';
import { MAX_SERIES, stackedBars } from '../../../src/server/console/chart.js';

const days = ['2026-11-24', '2026-11-25', '2026-11-26'];

describe('stackedBars', () => {
  it('draws one rect per non-zero value, stacked, with the labels escaped', () => {
    const svg = stackedBars({
      title: 'Cost <by> key',
      days,
      series: [
        { label: 'a&b', values: [1, 0, 2] },
        { label: '"c"', values: [0, 0, 3] },
      ],
      format: String,
    });
    expect(svg.match(/<rect class="bar"/g)).toHaveLength(3);
    expect(svg).toContain('Cost &lt;by&gt; key');
    expect(svg).toContain('a&amp;b');
    expect(svg).toContain('&quot;c&quot;');
    expect(svg).not.toMatch(/<by>|"c"<\/li>/);
    // The last day's two bars stack: the second starts where the first ends.
    const last = [...svg.matchAll(/<rect class="bar" x="([\d.]+)" y="([\d.]+)" width="[\d.]+" height="([\d.]+)"/g)]
      .slice(1)
      .map((m) => ({ y: +m[2], h: +m[3] }));
    expect(last[1].y + last[1].h).toBeCloseTo(last[0].y, 0);
  });

  it('folds series past the legend limit into one "others" series', () => {
    const series = Array.from({ length: MAX_SERIES + 3 }, (_, i) => ({ label: `s${i}`, values: [1, 1, 1] }));
    const svg = stackedBars({ title: 't', days, series, format: String });
    expect(svg.match(/<li>/g)).toHaveLength(MAX_SERIES + 1);
    expect(svg).toContain('3 others');
  });

  it('says that nothing was recorded when there is no series', () => {
    const svg = stackedBars({ title: 't', days, series: [], format: String });
    expect(svg).not.toContain('class="bar"');
    expect(svg).toContain('Nothing recorded');
  });
});
