import { escapeMarkup } from '../text/escape-markup.js';

/** Series colours: each at least 3:1 against both the light and the dark page background. */
export const PALETTE = ['#2f6fde', '#d0602a', '#23946a', '#9b4dca', '#c2405f', '#8a8a1c', '#1f8a9b', '#7a7f8a'];

/** Series beyond this many are summed into "others", so the legend stays readable. */
export const MAX_SERIES = 7;

export interface ChartSeries {
  label: string;
  values: number[];
}

function foldOthers(series: ChartSeries[]): ChartSeries[] {
  if (series.length <= MAX_SERIES + 1) return series;
  const rest = series.slice(MAX_SERIES);
  return [
    ...series.slice(0, MAX_SERIES),
    { label: `${rest.length} others`, values: rest[0].values.map((_, i) => rest.reduce((a, s) => a + s.values[i], 0)) },
  ];
}

/** A round upper bound for the axis: 1, 2 or 5 times a power of ten. */
function niceMax(max: number): number {
  if (max <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(max));
  return [1, 2, 5, 10].map((m) => m * p).find((v) => v >= max)!;
}

/**
 * A stacked bar chart as inline SVG (one bar a day, one colour a series), drawn on the server: no
 * script, no library. The title and description name what it shows for screen readers, and the
 * table beside it holds the same numbers.
 */
export function stackedBars(input: {
  title: string;
  days: string[];
  series: ChartSeries[];
  format: (n: number) => string;
}): string {
  const series = foldOthers(input.series);
  const W = 640,
    H = 220,
    left = 64,
    right = 8,
    top = 12,
    bottom = 28;
  const n = input.days.length;
  const totals = input.days.map((_, i) => series.reduce((a, s) => a + s.values[i], 0));
  const max = niceMax(Math.max(0, ...totals));
  const plotH = H - top - bottom;
  const slot = (W - left - right) / n;
  const bw = Math.max(2, slot * 0.7);
  const y = (v: number) => top + plotH - (v / max) * plotH;
  const bars: string[] = [];
  input.days.forEach((day, i) => {
    let base = 0;
    series.forEach((s, k) => {
      const v = s.values[i];
      if (v <= 0) return;
      const y0 = y(base),
        y1 = y(base + v);
      bars.push(
        `<rect class="bar" x="${(left + i * slot + (slot - bw) / 2).toFixed(1)}" y="${y1.toFixed(1)}" width="${bw.toFixed(1)}" height="${Math.max(1, y0 - y1).toFixed(1)}" fill="${PALETTE[k % PALETTE.length]}"><title>${escapeMarkup(`${day} · ${s.label}: ${input.format(v)}`)}</title></rect>`,
      );
      base += v;
    });
  });
  const ticks = [0, 0.5, 1].map(
    (f) =>
      `<line class="axis" x1="${left}" x2="${W - right}" y1="${y(max * f)}" y2="${y(max * f)}" stroke-opacity="${f === 0 ? 1 : 0.3}"/><text x="${left - 6}" y="${y(max * f) + 4}" text-anchor="end">${escapeMarkup(input.format(max * f))}</text>`,
  );
  const labels = [0, Math.floor((n - 1) / 2), n - 1].map(
    (i) =>
      `<text x="${left + i * slot + slot / 2}" y="${H - 8}" text-anchor="middle">${escapeMarkup(input.days[i].slice(5))}</text>`,
  );
  const id = `c${Math.abs([...input.title].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, 7))}`;
  const legend = series
    .map(
      (s, k) =>
        `<li><svg width="12" height="12" aria-hidden="true"><rect width="12" height="12" fill="${PALETTE[k % PALETTE.length]}"/></svg>${escapeMarkup(s.label)}</li>`,
    )
    .join('');
  return `<figure class="card">
<div class="chart-scroll" role="region" aria-label="${escapeMarkup(input.title)} (scrolls sideways)" tabindex="0"><svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${id}-t ${id}-d" preserveAspectRatio="xMidYMid meet">
<title id="${id}-t">${escapeMarkup(input.title)}</title>
<desc id="${id}-d">${escapeMarkup(`${input.days[0]} to ${input.days[n - 1]}: ${series.length ? series.map((s) => `${s.label} ${input.format(s.values.reduce((a, b) => a + b, 0))}`).join('; ') : 'nothing recorded'}`)}</desc>
${ticks.join('')}${bars.join('')}${labels.join('')}
</svg></div>
<figcaption>${escapeMarkup(input.title)}</figcaption>
${series.length ? `<ul class="legend">${legend}</ul>` : '<p class="placeholder">Nothing recorded in these days.</p>'}
</figure>`;
}
