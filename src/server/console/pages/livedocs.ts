import { escapeMarkup } from '../../text/escape-markup.js';
import type { ConsolePage, PageInput } from '../page.js';
import { liveDocs } from '../../services/console/work.service.js';
import { status, table, when } from './parts.js';

async function list({ ctx, user }: PageInput) {
  const docs = await liveDocs(ctx, user.id);
  const cards = docs.map(
    (d) => `<section class="card" aria-labelledby="ld-${escapeMarkup(d.id)}">
<h2 id="ld-${escapeMarkup(d.id)}">${escapeMarkup(d.name)} <span class="meta"><code>${escapeMarkup(d.id)}</code></span></h2>
${d.description ? `<p>${escapeMarkup(d.description)}</p>` : ''}
<p class="meta">Changed ${when(d.modifiedAt)} · <a href="${escapeMarkup(d.page)}">Open its page</a></p>
${table(
  `Resources of ${d.name}`,
  ['Title', 'Type', 'Source', 'Status', 'Added'],
  d.resources.map((r) => [
    escapeMarkup(r.title || '(untitled)'),
    escapeMarkup(r.content_type || r.resource_type),
    escapeMarkup(r.source),
    status(r.status),
    when(r.created_at),
  ]),
  'No resources yet.',
)}
</section>`,
  );
  return {
    title: 'LiveDocs',
    body: `<h1>LiveDocs</h1>
<p class="sub">The LiveDocs you own and their resources.</p>
${cards.length ? cards.join('\n') : '<p class="placeholder">No LiveDocs yet: facet livedocs create …</p>'}`,
  };
}

export const liveDocsPage: ConsolePage = { slug: 'livedocs', label: 'LiveDocs', get: { '': list } };
