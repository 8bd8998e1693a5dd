import type { FileStore } from './file-store.js';
import { LocalFileStore } from './local-file-store.js';
import { parseS3Config, type S3Options } from './s3/s3-config.js';
import type { StoreObserver } from './s3/s3-retry.js';

/**
 * The object store when one is configured (the files dir then holds only work in progress), else the
 * files dir. The AWS SDK is loaded only then: a server without an object store never reads it.
 */
export async function openFileStore(
  filesDir: string,
  objectStore?: S3Options,
  observer?: StoreObserver,
): Promise<FileStore> {
  if (!objectStore) return new LocalFileStore(filesDir);
  const config = parseS3Config(objectStore);
  const { S3FileStore } = await import('./s3/s3-file-store.js');
  return new S3FileStore(config, filesDir, observer);
}

const isObjectStore = (filesId: string) => filesId.startsWith('s3:');

/**
 * Why this instance must not join the others on one database, or null when they all share their
 * files: the same directory (same identity file) or the same object store (same identity object).
 */
export function filesMismatch(
  files: FileStore,
  filesId: string,
  others: Array<{ id: string; filesId: string }>,
): string | null {
  if (others.length === 0) return null;
  const n = `${others.length} other facet serve instance(s) on this database`;
  const lost = 'an upload or task output written by one would be missing on the others.';
  const theirsInStore = others.some((o) => isObjectStore(o.filesId));
  if (files.kind === 'local' && theirsInStore) {
    return `${n} keep their files in an object store, but this one would keep them in its own directory ${files.location}: ${lost} Start it with the same --object-store (and --s3-endpoint) as the others.`;
  }
  if (files.kind === 'local') {
    return `${n} use a different files directory than ${files.location}: ${lost} Start every instance with the same --files-dir (a directory they all mount), or run one instance.`;
  }
  if (!theirsInStore) {
    return `${n} keep their files in a local directory, but this one in the object store ${files.location}: ${lost} Start every instance with the same --object-store, or copy the files there first (facet serve migrate).`;
  }
  return `${n} use a different object store (bucket or prefix) than ${files.location}: ${lost} Start every instance with the same --object-store and --s3-endpoint.`;
}
