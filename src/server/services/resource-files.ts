import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { checkLink, signedLink } from '../auth/signed-links.js';

/** Source files live under <files>/livedocs/<livedoc>/<resource>/<name>; the name is made safe. */
export function saveResourceFile(filesDir: string, livedocId: string, resourceId: string, fileName: string, data: Buffer): string {
  const safe = path.basename(fileName).replace(/[^\w.\- ]+/g, '_').slice(0, 200) || 'file';
  const rel = path.join('livedocs', livedocId, resourceId, safe);
  mkdirSync(path.join(filesDir, path.dirname(rel)), { recursive: true });
  writeFileSync(path.join(filesDir, rel), data);
  return rel;
}

export function removeResourceFiles(filesDir: string, livedocId: string, resourceId: string): void {
  rmSync(path.join(filesDir, 'livedocs', livedocId, resourceId), { recursive: true, force: true });
}

export function removeLiveDocFiles(filesDir: string, livedocId: string): void {
  rmSync(path.join(filesDir, 'livedocs', livedocId), { recursive: true, force: true });
}

/** A download URL that works without credentials until `expires` (Unix seconds). */
export function signedDownloadUrl(baseUrl: string, secret: Uint8Array, resourceId: string, expires: number): string {
  return signedLink(baseUrl, secret, 'resource-download', resourceId, `/files/resources/${encodeURIComponent(resourceId)}`, expires);
}

export function checkSignature(secret: Uint8Array, resourceId: string, expires: number, sig: string, nowSeconds: number): 'ok' | 'expired' | 'bad' {
  return checkLink(secret, 'resource-download', resourceId, { expires, sig }, nowSeconds);
}
