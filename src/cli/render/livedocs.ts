import type { IO } from '../io/output.js';
import { cell } from '../io/cell.js';
import type { LiveDoc, Resource, RetrieveResult } from '../../contract/livedocs.js';

/** At most n characters, whole ones (an emoji's two UTF-16 halves are never parted), on one line. */
const short = (s: string, n: number) => {
  const chars = Array.from(s);
  return (chars.length > n ? chars.slice(0, n - 1).join('') + '…' : s).replace(/\s+/g, ' ');
};

export function printLiveDocs(
  io: IO,
  page: { total: number; page: number; size: number; items: Array<LiveDoc & { readme?: unknown }> },
): void {
  io.print(page, () => {
    io.table(
      page.items,
      [
        { header: 'ID', value: (d) => d.short_id },
        { header: 'NAME', value: (d) => d.name },
        { header: 'SHARED', value: (d) => (d.is_shared ? 'yes' : '') },
        { header: 'MODIFIED', value: (d) => d.modified_at },
        { header: 'DESCRIPTION', value: (d) => short(d.description, 60) },
      ],
      { empty: 'No LiveDocs. Create one: facet livedocs create "My research"' },
    );
  });
}

export function printLiveDoc(
  io: IO,
  doc: LiveDoc & { readme?: { summary: string | null; content: string | null } | null },
): void {
  io.print(doc, () => {
    io.fields([
      ['id', doc.short_id],
      ['name', doc.name],
      ['description', doc.description],
      ['icon', doc.icon],
      ['shared with you', doc.is_shared ? 'yes' : 'no'],
      ['created', doc.created_at],
      ['modified', doc.modified_at],
      ...(doc.readme ? ([['readme', doc.readme.summary ?? '']] as Array<[string, unknown]>) : []),
    ]);
  });
}

export function printResources(io: IO, page: { total: number; page: number; size: number; items: Resource[] }): void {
  io.print(page, () => {
    io.table(
      page.items,
      [
        { header: 'ID', value: (r) => r.id },
        { header: 'TYPE', value: (r) => r.resource_type },
        { header: 'TITLE', value: (r) => short(r.title, 50) },
        { header: 'LINK', value: (r) => short(r.link, 50) },
        { header: 'STATUS', value: (r) => r.status },
      ],
      { empty: 'No resources. Add some: facet livedocs resources add-url LIVEDOC https://…' },
    );
  });
}

export function printResource(io: IO, r: Resource): void {
  io.print(r, () =>
    io.fields([
      ['id', r.id],
      ['title', r.title],
      ['type', r.resource_type],
      ['link', r.link],
      ['status', r.status],
      ['source', r.source],
      ['key', r.resource_key],
      ['thumbnail', r.thumbnail],
      ['created', r.created_at],
      ['modified', r.modified_at],
      ['snippet', short(r.snippet, 200)],
    ]),
  );
}

export function printRetrieved(io: IO, results: RetrieveResult[]): void {
  io.print(results, () => {
    if (results.length === 0) io.info('Nothing matched.');
    results.forEach((r, i) => {
      const page = r.metadata.page_number !== undefined ? `, page ${cell(r.metadata.page_number)}` : '';
      io.write(
        `${io.c.bold(`${i + 1}. ${r.title}`)} ${io.c.dim(`(${r.id}${page}, score ${r.score})`)}\n${r.content}\n\n`,
      );
    });
  });
}
