import { escapeHtml } from '../../http/html-page.js';
import type { ConsolePage, PageInput } from '../page.js';
import { decks } from '../../services/console/work.service.js';
import { when } from './parts.js';

/** Slide previews are the PNGs the slides task rendered, read through the viewer's own signed links. */
async function list({ ctx, user }: PageInput) {
  const rows = await decks(ctx, user.id);
  const cards = rows.map(
    (d) => `<section class="card" aria-labelledby="deck-${escapeHtml(d.bizId)}">
<h2 id="deck-${escapeHtml(d.bizId)}">${escapeHtml(d.title)}</h2>
<p class="meta">${when(d.createdAt)} · ${d.previews.length} slide preview(s) · <a href="${escapeHtml(d.viewer)}">Open the viewer</a> · <a href="${escapeHtml(d.download)}">Download .pptx</a></p>
${d.previews.length ? `<div class="grid">${d.previews.map((p) => `<figure><a href="${escapeHtml(p.src)}"><img src="${escapeHtml(p.src)}" alt="${escapeHtml(`Slide ${p.n}: ${p.title}`)}" loading="lazy"></a><figcaption>${p.n}. ${escapeHtml(p.title)}</figcaption></figure>`).join('')}</div>` : '<p class="placeholder">No previews were rendered for this deck.</p>'}
</section>`,
  );
  return {
    title: 'Decks',
    body: `<h1>Decks</h1>
<p class="sub">Slide decks your tasks wrote, with their slide previews.</p>
${cards.length ? cards.join('\n') : '<p class="placeholder">No decks yet: facet slides create …</p>'}`,
  };
}

export const decksPage: ConsolePage = { slug: 'decks', label: 'Decks', get: { '': list } };
