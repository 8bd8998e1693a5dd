import { escapeMarkup } from '../../text/escape-markup.js';
import type { ConsolePage, PageInput } from '../page.js';
import { landingPages, mindmaps } from '../../services/console/work.service.js';
import { status, table, when } from './parts.js';

/** Landing pages and mindmaps open in their own viewers (which forbid framing), by signed link. */
async function list({ ctx, user }: PageInput) {
  const [pages, maps] = await Promise.all([landingPages(ctx, user.id), mindmaps(ctx, user.id)]);
  // The link leads each row: on a phone the first column is the one always in view.
  const pageRows = pages.map((p) => [
    p.view
      ? `<a href="${escapeMarkup(p.view)}"><code>${escapeMarkup(p.bizId)}</code></a>`
      : `<code>${escapeMarkup(p.bizId)}</code>`,
    status(p.status),
    when(p.createdAt),
  ]);
  const mapRows = maps.map((m) => [
    `<a href="${escapeMarkup(m.view)}">${escapeMarkup(m.title || '(untitled)')}</a>`,
    escapeMarkup(m.livedoc_name),
    when(m.created_at),
  ]);
  return {
    title: 'Pages and mindmaps',
    body: `<h1>Landing pages and mindmaps</h1>
<p class="sub">Each opens in its own viewer.</p>
<h2>Landing pages</h2>
${table('Landing pages', ['Page', 'Status', 'Created'], pageRows, 'No landing pages yet: facet pages create …')}
<h2>Mindmaps</h2>
${table('Mindmaps', ['Mindmap', 'LiveDoc', 'Created'], mapRows, 'No mindmaps yet: facet mindmap …')}`,
  };
}

export const viewersPage: ConsolePage = { slug: 'pages', label: 'Pages & mindmaps', get: { '': list } };
