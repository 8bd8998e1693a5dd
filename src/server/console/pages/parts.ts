import { escapeMarkup } from '../../text/escape-markup.js';

/**
 * A table in a labelled, keyboard-scrollable region: on a narrow screen it scrolls sideways
 * instead of pushing the page wider. Cells are HTML the caller has escaped.
 */
export function table(label: string, head: string[], rows: string[][], empty: string): string {
  if (rows.length === 0) return `<p class="placeholder">${escapeMarkup(empty)}</p>`;
  return `<div class="table-wrap" role="region" aria-label="${escapeMarkup(label)}" tabindex="0"><table>
<thead><tr>${head.map((h) => `<th scope="col">${escapeMarkup(h)}</th>`).join('')}</tr></thead>
<tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('\n')}</tbody>
</table></div>`;
}

/** A time as a short UTC text inside <time>, or a dash. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  return `<time datetime="${escapeMarkup(iso)}">${escapeMarkup(iso.slice(0, 16).replace('T', ' '))}</time>`;
}

export const status = (s: string) => `<span class="status status-${escapeMarkup(s)}">${escapeMarkup(s)}</span>`;
