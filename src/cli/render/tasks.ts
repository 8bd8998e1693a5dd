import type { ArtifactNode, TaskInfo } from '../../contract/image-tasks.js';
import { cell } from '../io/cell.js';
import type { Column, IO } from '../io/output.js';

export const TASK_COLUMNS: Array<Column<TaskInfo>> = [
  { header: 'ID', value: (t) => t.id, priority: 1 },
  { header: 'KIND', value: (t) => t.kind, priority: 2, whole: true },
  { header: 'STATUS', value: (t) => t.status, priority: 1 },
  { header: 'PROJECT', value: (t) => t.project_id, priority: 3 },
  { header: 'SIZE', value: (t) => `${t.width}x${t.height}`, priority: 3 },
  { header: 'INPUT', value: (t) => (t.prompt ?? t.url ?? '').slice(0, 60), priority: 1, min: 20 },
  { header: 'CREATED', value: (t) => t.created_at, priority: 2 },
];

export const ARTIFACT_COLUMNS: Array<Column<ArtifactNode>> = [
  { header: 'PATH', value: (n) => (n.type === 'directory' ? `${n.path}/` : n.path) },
  { header: 'SIZE', value: (n) => (n.type === 'directory' ? '' : n.size) },
  { header: 'TYPE', value: (n) => n.mime_type ?? 'directory' },
  { header: 'MODIFIED', value: (n) => n.modified_at },
];

export function printTask(io: IO, t: TaskInfo): void {
  io.print(t, () => {
    if (!io.stdoutIsTTY) return io.write(TASK_COLUMNS.map((c) => cell(c.value(t))).join('\t') + '\n');
    io.fields([
      ['id', t.id],
      ['kind', `${t.kind} (${t.model})`],
      ['status', t.status],
      ['project', t.project_id],
      ['site', t.site_id ?? ''],
      [t.kind === 'screenshot' ? 'url' : 'prompt', t.prompt ?? t.url ?? ''],
      ['size', `${t.width}x${t.height}${t.kind === 'illustration' ? ` ×${t.count}` : t.full_page ? ' full page' : ''}`],
      ['references', t.reference_files.map((f) => f.name).join(', ')],
      ['attempts', `${t.attempts} of ${t.max_attempts}`],
      ['error', t.error ?? ''],
      ['created', t.created_at],
      ['finished', t.finished_at ?? ''],
    ]);
  });
}
