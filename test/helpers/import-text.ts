import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/server/store/database.js';
import type { Family } from '../../src/server/providers/beta/import/families.js';
import { importFile } from '../../src/server/providers/beta/import/import-file.js';

/** `facet serve data import` of a file's text, streamed in pieces of `chunk` characters as a file would be. */
export function importText(db: Kysely<Database>, family: Family, fileName: string, text: string, chunk = 7) {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += chunk) pieces.push(text.slice(i, i + chunk));
  return importFile(db, family, fileName, Readable.from(pieces.length ? pieces : ['']));
}
