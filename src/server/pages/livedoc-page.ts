import { escapeHtml, renderPage } from '../http/html-page.js';
import type { LiveDocPageData } from '../services/livedoc-page.service.js';
import { LIVEDOC_PAGE_LIMIT } from '../services/livedoc-page.service.js';

/** Only links a person can follow safely: the resource's own web address when it is one. */
const webLink = (link: string) => (/^https?:\/\//i.test(link) ? link : null);

export function liveDocPageHtml(data: LiveDocPageData): string {
  const items = data.resources
    .map((r) => {
      const source = webLink(r.link);
      const actions = [r.download ? `<a href="${escapeHtml(r.download)}">Download</a>` : '', source ? `<a href="${escapeHtml(source)}" rel="noreferrer">Source</a>` : '']
        .filter(Boolean)
        .join(' · ');
      return `<article class="card"><h2>${escapeHtml(r.title || r.id)}</h2>
<div class="meta">${escapeHtml(r.type)} · ${escapeHtml(r.created_at.slice(0, 10))} · <code>${escapeHtml(r.id)}</code>${actions ? ` · ${actions}` : ''}</div>
${r.snippet ? `<p class="snippet">${escapeHtml(r.snippet.slice(0, 400))}${r.snippet.length > 400 ? '…' : ''}</p>` : ''}</article>`;
    })
    .join('\n');
  const count = data.total === 1 ? '1 resource' : `${data.total} resources`;
  const more = data.total > LIVEDOC_PAGE_LIMIT ? ` (the newest ${LIVEDOC_PAGE_LIMIT} shown; the API lists all)` : '';
  return renderPage({
    title: `${data.name} — LiveDoc`,
    body: `<h1>${escapeHtml(data.name)}</h1>
<p class="sub">${data.description ? `${escapeHtml(data.description)} · ` : ''}${count}${more}</p>
${items || '<p class="card">This LiveDoc has no resources yet.</p>'}`,
  });
}
