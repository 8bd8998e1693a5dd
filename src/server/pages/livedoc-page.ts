import { renderPage } from '../http/html-page.js';
import { escapeMarkup } from '../text/escape-markup.js';
import type { LiveDocPageData } from '../services/livedoc-page.service.js';
import { LIVEDOC_PAGE_LIMIT } from '../services/livedoc-page.service.js';

const snippetHtml = (text: string) =>
  text ? `<p class="snippet">${escapeMarkup(text.slice(0, 400))}${text.length > 400 ? '…' : ''}</p>` : '';

/** Only links a person can follow safely: the resource's own web address when it is one. */
const webLink = (link: string) => (/^https?:\/\//i.test(link) ? link : null);

/**
 * A snippet as a person reads it: Markdown marks dropped (heading hashes, table rules and pipes,
 * emphasis), a first heading that repeats the title left out, blank lines collapsed.
 */
export function readableSnippet(snippet: string, title: string): string {
  const lines = snippet
    .split('\n')
    .filter((l) => !/^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/.test(l))
    .map((l) => {
      let t = l.replace(/^\s{0,3}#{1,6}\s+/, '').replace(/[*_`]{1,3}([^*_`]+)[*_`]{1,3}/g, '$1');
      if (/^\s*\|.*\|\s*$/.test(t))
        t = t
          .trim()
          .slice(1, -1)
          .split('|')
          .map((c) => c.trim())
          .join(' · ');
      return t.trimEnd();
    });
  if (lines.length > 0 && lines[0].trim().toLowerCase() === title.trim().toLowerCase()) lines.shift();
  return lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function liveDocPageHtml(data: LiveDocPageData): string {
  const items = data.resources
    .map((r) => {
      const source = webLink(r.link);
      const actions = [
        r.download ? `<a href="${escapeMarkup(r.download)}">Download</a>` : '',
        source ? `<a href="${escapeMarkup(source)}" rel="noreferrer">Source</a>` : '',
      ]
        .filter(Boolean)
        .join(' · ');
      return `<article class="card"><h2>${escapeMarkup(r.title || r.id)}</h2>
<div class="meta">${escapeMarkup(r.type)} · ${escapeMarkup(r.created_at.slice(0, 10))} · <code>${escapeMarkup(r.id)}</code>${actions ? ` · ${actions}` : ''}</div>
${snippetHtml(readableSnippet(r.snippet, r.title))}</article>`;
    })
    .join('\n');
  const count = data.total === 1 ? '1 resource' : `${data.total} resources`;
  const more = data.total > LIVEDOC_PAGE_LIMIT ? ` (the newest ${LIVEDOC_PAGE_LIMIT} shown; the API lists all)` : '';
  return renderPage({
    title: `${data.name} — LiveDoc`,
    body: `<h1>${escapeMarkup(data.name)}</h1>
<p class="sub">${data.description ? `${escapeMarkup(data.description)} · ` : ''}${count}${more}</p>
${items || '<p class="card">This LiveDoc has no resources yet.</p>'}`,
  });
}
