import { escapeHtml } from '../../http/html-page.js';
import type { ConsolePage, PageInput } from '../page.js';
import { landingPages, mindmaps } from '../../services/console/work.service.js';
import { status, table, when } from './parts.js';

/** Landing pages and mindmaps open in their own viewers (which forbid framing), by signed link. */
async function list({ ctx, user }: PageInput) {
  const [pages, maps] = await Promise.all([landingPages(ctx, user.id), mindmaps(ctx, user.id)]);
  const pageRows = pages.map((p) => [`<code>${escapeHtml(p.bizId)}</code>`, status(p.status), when(p.createdAt), p.view ? `<a href="${escapeHtml(p.view)}">Open the page</a>` : '—']);
  const mapRows = maps.map((m) => [escapeHtml(m.title || '(untitled)'), escapeHtml(m.livedoc_name), when(m.created_at), `<a href="${escapeHtml(m.view)}">Open the mindmap</a>`]);
  return {
    title: 'Pages and mindmaps',
    body: `<h1>Landing pages and mindmaps</h1>
<h2>Landing pages</h2>
${table('Landing pages', ['Task', 'Status', 'Created', 'View'], pageRows, 'No landing pages yet: facet pages create …')}
<h2>Mindmaps</h2>
${table('Mindmaps', ['Title', 'LiveDoc', 'Created', 'View'], mapRows, 'No mindmaps yet: facet mindmap …')}`,
  };
}

export const viewersPage: ConsolePage = { slug: 'pages', label: 'Pages & mindmaps', get: { '': list } };
