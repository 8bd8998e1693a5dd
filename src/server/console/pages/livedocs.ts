import { escapeHtml } from '../../http/html-page.js';
import type { ConsolePage, PageInput } from '../page.js';
import { liveDocs } from '../../services/console/work.service.js';
import { status, table, when } from './parts.js';

async function list({ ctx, user }: PageInput) {
  const docs = await liveDocs(ctx, user.id);
  const cards = docs.map(
    (d) => `<section class="card" aria-labelledby="ld-${escapeHtml(d.id)}">
<h2 id="ld-${escapeHtml(d.id)}">${escapeHtml(d.name)} <span class="meta"><code>${escapeHtml(d.id)}</code></span></h2>
${d.description ? `<p>${escapeHtml(d.description)}</p>` : ''}
<p class="meta">Changed ${when(d.modifiedAt)} · <a href="${escapeHtml(d.page)}">Open its page</a></p>
${table(`Resources of ${d.name}`, ['Title', 'Type', 'Source', 'Status', 'Added'], d.resources.map((r) => [escapeHtml(r.title || '(untitled)'), escapeHtml(r.content_type || r.resource_type), escapeHtml(r.source), status(r.status), when(r.created_at)]), 'No resources yet.')}
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
