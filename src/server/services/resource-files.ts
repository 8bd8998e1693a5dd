import path from 'node:path';
import { checkLink, signedLink } from '../auth/signed-links.js';
import { fileKey, type FileStore } from '../files/file-store.js';

/** Source files live under livedocs/<livedoc>/<resource>/<name> in the file store; the name is made safe. */
export async function saveResourceFile(
  files: FileStore,
  livedocId: string,
  resourceId: string,
  fileName: string,
  data: Buffer,
  mime?: string,
): Promise<string> {
  const safe =
    path
      .basename(fileName)
      .replace(/[^\w.\- ]+/g, '_')
      .slice(0, 200)
      .replace(/^\.+$/, '') || 'file';
  const key = fileKey('livedocs', livedocId, resourceId, safe);
  await files.put(key, data, mime);
  return key;
}

/** The stored key of a resource's file from its file_path column ("/"-separated; older rows may hold the platform's separator). */
export function resourceFileKey(filePath: string): string {
  return fileKey(...filePath.split(/[\\/]/));
}

export async function removeResourceFiles(files: FileStore, livedocId: string, resourceId: string): Promise<void> {
  await files.deletePrefix(fileKey('livedocs', livedocId, resourceId));
}

export async function removeLiveDocFiles(files: FileStore, livedocId: string): Promise<void> {
  await files.deletePrefix(fileKey('livedocs', livedocId));
}

/** A download URL that works without credentials until `expires` (Unix seconds). */
export function signedDownloadUrl(baseUrl: string, secret: Uint8Array, resourceId: string, expires: number): string {
  return signedLink(
    baseUrl,
    secret,
    'resource-download',
    resourceId,
    `/files/resources/${encodeURIComponent(resourceId)}`,
    expires,
  );
}

export function checkSignature(
  secret: Uint8Array,
  resourceId: string,
  expires: number,
  sig: string,
  nowSeconds: number,
): 'ok' | 'expired' | 'bad' {
  return checkLink(secret, 'resource-download', resourceId, { expires, sig }, nowSeconds);
}
