import { renderPage } from '../http/html-page.js';
import { escapeMarkup } from '../text/escape-markup.js';
import type { SlideViewerData } from '../services/slides-viewer.service.js';

const CSS = `
.deck-head{display:flex;flex-wrap:wrap;align-items:baseline;justify-content:space-between;gap:12px;margin:0 0 20px}
.download{display:inline-block;padding:8px 14px;border-radius:8px;background:var(--accent);color:#fff;text-decoration:none;font-weight:600}
figure{margin:0 0 20px}figure img{display:block;width:100%;height:auto;border:1px solid var(--line);border-radius:8px;background:#fff}
figcaption{color:var(--muted);font-size:.9rem;margin:6px 2px 0}
.slide-text h2{font-size:1.1rem;margin:0 0 6px}.slide-text p{margin:0;white-space:pre-wrap}`;

/** The slide viewer: every slide's preview in order, or its text when the deck has no previews. */
export function slidesPageHtml(data: SlideViewerData): string {
  const slides = data.slides
    .map((s) =>
      s.preview
        ? `<figure id="slide-${s.n}"><img src="${escapeMarkup(s.preview)}" alt="Slide ${s.n}: ${escapeMarkup(s.title)}" loading="lazy" width="1280" height="720"><figcaption>${s.n}. ${escapeMarkup(s.title)}</figcaption></figure>`
        : `<article class="card slide-text" id="slide-${s.n}"><div class="meta">Slide ${s.n}</div><p>${escapeMarkup(s.text)}</p></article>`,
    )
    .join('\n');
  const note =
    data.previewsState === 'drawing'
      ? '<p class="sub">The slide previews are being drawn: the slides\' text is shown meanwhile (reload in a few seconds).</p>'
      : data.slides.some((s) => !s.preview)
        ? '<p class="sub">No previews were drawn for this deck (LibreOffice was not available): the slides\' text is shown instead.</p>'
        : '';
  return renderPage({
    title: `${data.title} — slides`,
    css: CSS,
    body: `<div class="deck-head"><div><h1>${escapeMarkup(data.title)}</h1>
<p class="sub">${data.slides.length} slides · ${escapeMarkup(data.createdAt.slice(0, 10))} · <code>${escapeMarkup(data.bizId)}</code></p></div>
<a class="download" href="${escapeMarkup(data.download)}" download>Download .pptx</a></div>
${note}
${slides}`,
  });
}
