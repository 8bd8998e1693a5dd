import type { ProjectFile, ProjectInfo, SiteInfo } from '../../contract/image-projects.js';
import { cell } from '../io/cell.js';
import type { Column, IO } from '../io/output.js';

export const PROJECT_COLUMNS: Array<Column<ProjectInfo>> = [
  { header: 'ID', value: (p) => p.id },
  { header: 'NAME', value: (p) => p.name },
  { header: 'DEFAULT', value: (p) => (p.is_default ? 'yes' : '') },
  { header: 'DESCRIPTION', value: (p) => p.description ?? '' },
  { header: 'CREATED', value: (p) => p.created_at },
];

export const FILE_COLUMNS: Array<Column<ProjectFile>> = [
  { header: 'ID', value: (f) => f.id },
  { header: 'NAME', value: (f) => f.name },
  { header: 'SIZE', value: (f) => f.size },
  { header: 'TYPE', value: (f) => f.mime_type },
  { header: 'CREATED', value: (f) => f.created_at },
];

export const SITE_COLUMNS: Array<Column<SiteInfo>> = [
  { header: 'ID', value: (s) => s.id },
  { header: 'URL', value: (s) => s.url },
  { header: 'TITLE', value: (s) => s.title ?? '' },
  { header: 'CREATED', value: (s) => s.created_at },
];

/** One record: fields on a TTY, one tab-separated line when piped, JSON with --json. */
export function printRecord<T>(io: IO, row: T, columns: Array<Column<T>>): void {
  io.print(row, () => {
    if (!io.stdoutIsTTY) return io.write(columns.map((c) => cell(c.value(row))).join('\t') + '\n');
    io.fields(columns.map((c) => [c.header.toLowerCase(), c.value(row)]));
  });
}
