import { LRUCache } from 'lru-cache';
import type { StoredBacklink } from './backlinks-data.js';

/**
 * An imported target as the CPU worker receives it: which import (its version, a new one on every
 * `facet serve data import`), and its rows' JSON text only when the worker asked for them.
 */
export interface ImportedTarget {
  subject: string;
  version: string;
  /** The rows as newline-separated JSON, in chunks that end at a row (transferred, not copied). */
  chunks?: Uint8Array[];
}

/**
 * Imported targets a worker holds: at most this many, the least recently used dropped first. A 1M-row
 * import is about 2 GB of row objects and columns, so few are kept.
 */
const held = new LRUCache<string, { version: string; rows: StoredBacklink[] }>({ max: 2 });

/**
 * The rows of an imported target: the ones held for its version (the same array each time, so its
 * column index, kept with the array, is built once per import), or parsed from the text sent along.
 * Null when this worker holds no rows of that version and none came: the caller then reads them from
 * the store and asks again with them.
 */
export function importedBacklinks(target: ImportedTarget): StoredBacklink[] | null {
  const hit = held.get(target.subject);
  if (hit && hit.version === target.version) return hit.rows;
  // Another version's rows go before the new ones are parsed, not after.
  held.delete(target.subject);
  if (!target.chunks) return null;
  const decoder = new TextDecoder();
  const rows: StoredBacklink[] = [];
  for (let c = 0; c < target.chunks.length; c++) {
    // Each chunk is let go once parsed, so a 1M-row import never holds all its text and all its objects at once.
    const text = decoder.decode(target.chunks[c]);
    target.chunks[c] = new Uint8Array(0);
    for (const line of text.split('\n')) if (line) rows.push(JSON.parse(line) as StoredBacklink);
  }
  held.set(target.subject, { version: target.version, rows });
  return rows;
}
