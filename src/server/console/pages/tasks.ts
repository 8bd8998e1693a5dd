import { escapeMarkup } from '../../text/escape-markup.js';
import type { ConsolePage, PageInput } from '../page.js';
import { CONSOLE_PREFIX } from '../layout.js';
import { imageTask, imageTasks } from '../../services/console/work.service.js';
import { status, table, when } from './parts.js';

const taskUrl = (id: string) => `${CONSOLE_PREFIX}/tasks/${encodeURIComponent(id)}`;
const sizeText = (n: number) =>
  n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} B`;

async function list({ ctx, user }: PageInput) {
  const tasks = await imageTasks(ctx, user.id);
  const rows = tasks.map((t) => [
    `<a href="${taskUrl(t.id)}"><code>${escapeMarkup(t.id)}</code></a>`,
    escapeMarkup(t.kind),
    status(t.status),
    `<span class="wrap">${escapeMarkup((t.prompt ?? t.url ?? '').slice(0, 80))}</span>`,
    when(t.created_at),
    when(t.finished_at),
  ]);
  return {
    title: 'Tasks',
    body: `<h1>Tasks</h1>
<p class="sub">Your illustration and screenshot tasks, newest first.</p>
${table('Tasks', ['Task', 'Kind', 'Status', 'Prompt or URL', 'Created', 'Finished'], rows, 'No tasks yet: facet tasks create …')}`,
  };
}

async function detail({ ctx, user, params }: PageInput) {
  const { task, log, files } = await imageTask(ctx, user.id, params.id);
  const images = files.filter((f) => f.image);
  const gallery = images.length
    ? `<div class="grid">${images.map((f) => `<figure class="card"><a href="${escapeMarkup(f.view)}"><img src="${escapeMarkup(f.view)}" alt="${escapeMarkup(`${f.name}, an output of task ${task.id}`)}" loading="lazy"></a><figcaption>${escapeMarkup(f.path)} · ${escapeMarkup(sizeText(f.size))}</figcaption></figure>`).join('')}</div>`
    : '<p class="placeholder">No images (yet).</p>';
  const fileRows = files.map((f) => [
    `<a href="${escapeMarkup(f.view)}">${escapeMarkup(f.path)}</a>`,
    escapeMarkup(f.mime_type ?? '—'),
    `<span class="num">${escapeMarkup(sizeText(f.size))}</span>`,
    when(f.modified_at),
  ]);
  const logText = log.map((l) => `${l.at.slice(11, 19)}  ${l.line}`).join('\n');
  return {
    title: `Task ${task.id}`,
    body: `<p><a href="${CONSOLE_PREFIX}/tasks">← All tasks</a></p>
<h1>Task <code>${escapeMarkup(task.id)}</code></h1>
<div class="card"><p>${escapeMarkup(task.kind)} · ${status(task.status)} · ${escapeMarkup(task.model ?? '')} · created ${when(task.created_at)}${task.finished_at ? ` · finished ${when(task.finished_at)}` : ''}</p>
${task.prompt ? `<p>${escapeMarkup(task.prompt)}</p>` : ''}${task.url ? `<p><code>${escapeMarkup(task.url)}</code></p>` : ''}${task.error ? `<p class="status status-failed">${escapeMarkup(task.error)}</p>` : ''}</div>
<h2>Images</h2>
${gallery}
<h2>Artifacts</h2>
${table('Artifacts', ['File', 'Type', 'Size', 'Modified'], fileRows, 'No files.')}
<h2>Log</h2>
${log.length ? `<pre class="log" tabindex="0" aria-label="Task log">${escapeMarkup(logText)}</pre>` : '<p class="placeholder">No log lines.</p>'}`,
  };
}

export const tasksPage: ConsolePage = { slug: 'tasks', label: 'Tasks', get: { '': list, '/:id': detail } };
