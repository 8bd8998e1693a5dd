import { lstat, readdir, realpath, open } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import yazl from 'yazl';
import type { ArtifactNode } from '../../contract/image-tasks.js';
import { RequestValidationError, notFound } from '../errors.js';
import { isTextType, mimeTypeOf } from '../files/mime.js';

const PREVIEW_BYTES = 64 * 1024;

function invalidPath(msg: string): RequestValidationError {
  return new RequestValidationError([{ loc: ['query', 'path'], msg, type: 'value_error' }], false);
}

/**
 * Resolves a client's relative path inside the task output folder, or refuses: 422 for a path that
 * tries to leave it (absolute, "..", backslashes, encoded separators, NUL), 404 for anything that is
 * not a regular file inside it once symlinks are resolved.
 */
export async function resolveArtifact(outputDir: string, rel: string): Promise<{ full: string; rel: string; size: number; mtime: Date }> {
  if (rel.includes('\0')) throw invalidPath('the path contains a NUL byte');
  if (rel.includes('\\')) throw invalidPath('use "/" as the separator');
  if (/%(2f|5c|2e|00)/i.test(rel)) throw invalidPath('the path contains an encoded separator or dot');
  if (rel.startsWith('/') || /^[A-Za-z]:/.test(rel)) throw invalidPath('the path must be relative to the task output folder');
  const segments = rel.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) throw invalidPath('the path must not contain ".."');
  if (segments.length === 0) throw invalidPath('the path names no file');
  const clean = segments.join('/');
  const full = path.join(outputDir, ...segments);
  const missing = () => notFound(`artifact ${clean}`);
  let root: string;
  let real: string;
  try {
    root = await realpath(outputDir);
    real = await realpath(full);
  } catch {
    throw missing();
  }
  if (!real.startsWith(root + path.sep)) throw missing();
  const st = await lstat(full).catch(() => undefined);
  if (!st || st.isSymbolicLink() || !st.isFile()) throw missing();
  return { full: real, rel: clean, size: st.size, mtime: st.mtime };
}

/** Every regular file and folder under the output folder, depth first, sorted by name; symlinks are left out. */
export async function artifactTree(outputDir: string): Promise<ArtifactNode[]> {
  const out: ArtifactNode[] = [];
  async function walk(dir: string, prefix: string): Promise<void> {
    let names: string[];
    try {
      names = (await readdir(dir)).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const full = path.join(dir, name);
      const st = await lstat(full).catch(() => undefined);
      if (!st || st.isSymbolicLink()) continue;
      const rel = prefix ? `${prefix}/${name}` : name;
      if (st.isDirectory()) {
        out.push({ name, path: rel, type: 'directory', size: 0, mime_type: null, modified_at: st.mtime.toISOString() });
        await walk(full, rel);
      } else if (st.isFile()) {
        out.push({ name, path: rel, type: 'file', size: st.size, mime_type: mimeTypeOf(name), modified_at: st.mtime.toISOString() });
      }
    }
  }
  await walk(outputDir, '');
  return out;
}

/** The length of the longest prefix of buf[0, n) that ends on a complete UTF-8 character. */
function wholeCharsEnd(buf: Buffer, n: number): number {
  let lead = n - 1;
  while (lead > 0 && n - lead < 4 && (buf[lead] & 0xc0) === 0x80) lead--;
  const b = buf[lead];
  const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
  return lead + need <= n ? n : lead;
}

export async function artifactContent(outputDir: string, rel: string, urls: { download: string; resource: string }) {
  const file = await resolveArtifact(outputDir, rel);
  const mime = mimeTypeOf(file.rel);
  const base = {
    path: file.rel,
    name: path.posix.basename(file.rel),
    mime_type: mime,
    size: file.size,
    modified_at: file.mtime.toISOString(),
    download_url: urls.download,
    resource_url: urls.resource,
  };
  if (!isTextType(mime)) return { ...base, kind: mime.startsWith('image/') ? ('image' as const) : ('binary' as const), preview: null, truncated: false };
  const fh = await open(file.full, 'r');
  try {
    const buf = Buffer.alloc(Math.min(PREVIEW_BYTES, file.size));
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    // Cut at a whole UTF-8 character so the preview never ends in a broken one.
    const end = file.size > bytesRead ? wholeCharsEnd(buf, bytesRead) : bytesRead;
    return { ...base, kind: 'text' as const, preview: buf.subarray(0, end).toString('utf8'), truncated: file.size > bytesRead };
  } finally {
    await fh.close();
  }
}

export function artifactStream(full: string): Readable {
  return createReadStream(full);
}

/** A ZIP of the whole output folder, produced as it is sent. */
export async function artifactsZip(outputDir: string): Promise<Readable> {
  const zip = new yazl.ZipFile();
  for (const node of await artifactTree(outputDir)) {
    if (node.type === 'directory') zip.addEmptyDirectory(node.path);
    else zip.addFile(path.join(outputDir, ...node.path.split('/')), node.path);
  }
  zip.end();
  return zip.outputStream as unknown as Readable;
}
