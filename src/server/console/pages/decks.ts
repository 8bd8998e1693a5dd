import { escapeMarkup } from '../../text/escape-markup.js';
import type { ConsolePage, PageInput } from '../page.js';
import { decks } from '../../services/console/work.service.js';
import { when } from './parts.js';

/** Slide previews are the PNGs the slides task rendered, read through the viewer's own signed links. */
async function list({ ctx, user }: PageInput) {
  const rows = await decks(ctx, user.id);
  const cards = rows.map(
    (d) => `<section class="card" aria-labelledby="deck-${escapeMarkup(d.bizId)}">
<h2 id="deck-${escapeMarkup(d.bizId)}">${escapeMarkup(d.title)}</h2>
<p class="meta">${when(d.createdAt)} · ${d.previews.length} slide preview(s) · <a href="${escapeMarkup(d.viewer)}">Open the viewer</a> · <a href="${escapeMarkup(d.download)}">Download .pptx</a></p>
${d.previews.length ? `<div class="grid">${d.previews.map((p) => `<figure><a href="${escapeMarkup(p.src)}"><img src="${escapeMarkup(p.src)}" alt="${escapeMarkup(`Slide ${p.n}: ${p.title}`)}" loading="lazy"></a><figcaption>${p.n}. ${escapeMarkup(p.title)}</figcaption></figure>`).join('')}</div>` : `<p class="placeholder">${d.drawing ? 'The slide previews are being drawn: reload in a few seconds.' : 'No previews were rendered for this deck.'}</p>`}
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
