import { escapeMarkup } from '../../text/escape-markup.js';
import type { ConsolePage, PageInput } from '../page.js';
import { stackedBars } from '../chart.js';
import { usageCharts, USAGE_DAYS, type Series } from '../../services/console/overview.service.js';
import { table } from './parts.js';

const usd = (n: number) => (n === 0 ? '$0' : n < 0.01 ? `$${n.toPrecision(2)}` : `$${n.toFixed(2)}`);
const count = (n: number) =>
  n >= 1e6 ? `${+(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${+(n / 1e3).toFixed(1)}k` : String(Math.round(n));
const total = (s: Series) => s.values.reduce((a, b) => a + b, 0);

async function usage({ ctx, user }: PageInput) {
  const u = await usageCharts(ctx, user);
  const who = user.role === 'admin' ? 'everyone’s calls' : 'your calls';
  return {
    title: 'Usage',
    body: `<h1>Usage</h1>
<p class="sub">The last ${USAGE_DAYS} days (UTC) of ${who}, from the same records as <code>facet admin usage</code>.</p>
<div class="totals">
<div class="card"><span class="meta">Calls</span><strong>${escapeMarkup(count(u.totals.calls))}</strong></div>
<div class="card"><span class="meta">Tokens</span><strong>${escapeMarkup(count(u.totals.tokens))}</strong></div>
<div class="card"><span class="meta">Cost</span><strong>${escapeMarkup(usd(u.totals.costUsd))}</strong></div>
</div>
<h2>Cost per day, by key</h2>
${stackedBars({ title: 'Cost per day by API key (USD)', days: u.days, series: u.costByKey, format: usd })}
${table(
  'Cost by key',
  ['Key', `Cost (${USAGE_DAYS} days)`],
  u.costByKey.map((s) => [escapeMarkup(s.label), `<span class="num">${escapeMarkup(usd(total(s)))}</span>`]),
  'No usage recorded.',
)}
<h2>Tokens per day, by model</h2>
${stackedBars({ title: 'Tokens per day by model', days: u.days, series: u.tokensByModel, format: count })}
${table(
  'Tokens by model',
  ['Model', `Tokens (${USAGE_DAYS} days)`],
  u.tokensByModel.map((s) => [escapeMarkup(s.label), `<span class="num">${escapeMarkup(count(total(s)))}</span>`]),
  'No usage recorded.',
)}`,
  };
}

export const usagePage: ConsolePage = { slug: 'usage', label: 'Usage', get: { '': usage } };
