import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import type { ArtifactNode } from '../../contract/image-tasks.js';
import { RequestValidationError, notFound } from '../errors.js';
import type { FileStore } from '../files/file-store.js';
import { isTextType, mimeTypeOf } from '../files/mime.js';
import { LocalFileStore } from '../files/local-file-store.js';

const PREVIEW_BYTES = 64 * 1024;

function invalidPath(msg: string): RequestValidationError {
  return new RequestValidationError([{ loc: ['query', 'path'], msg, type: 'value_error' }], false);
}

/**
 * Resolves a client's relative path inside a task's output folder (a prefix of the file store), or
 * refuses: 422 for a path that tries to leave it (absolute, "..", backslashes, encoded separators,
 * NUL), 404 for anything that is not a stored file there (a local store never follows a symlink).
 */
export async function resolveArtifact(
  files: FileStore,
  outputPrefix: string,
  rel: string,
): Promise<{ key: string; rel: string; size: number; mtime: Date }> {
  if (rel.includes('\0')) throw invalidPath('the path contains a NUL byte');
  if (rel.includes('\\')) throw invalidPath('use "/" as the separator');
  if (/%(2f|5c|2e|00)/i.test(rel)) throw invalidPath('the path contains an encoded separator or dot');
  if (rel.startsWith('/') || /^[A-Za-z]:/.test(rel))
    throw invalidPath('the path must be relative to the task output folder');
  const segments = rel.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) throw invalidPath('the path must not contain ".."');
  if (segments.length === 0) throw invalidPath('the path names no file');
  const clean = segments.join('/');
  const st = await files.stat(`${outputPrefix}/${clean}`);
  if (!st) throw notFound(`artifact ${clean}`);
  return { key: st.key, rel: clean, size: st.size, mtime: st.modified };
}

/**
 * Every stored file under the output folder with the folders that hold them, depth first, sorted by
 * name; a folder's time is its newest file's.
 */
export async function artifactTree(files: FileStore, outputPrefix: string): Promise<ArtifactNode[]> {
  type Dir = { files: Map<string, { size: number; modified: Date }>; dirs: Map<string, Dir>; newest: number };
  const root: Dir = { files: new Map(), dirs: new Map(), newest: 0 };
  for (const f of await files.list(outputPrefix)) {
    const parts = f.key.slice(outputPrefix.length + 1).split('/');
    let d = root;
    for (const p of parts.slice(0, -1)) {
      let next = d.dirs.get(p);
      if (!next) d.dirs.set(p, (next = { files: new Map(), dirs: new Map(), newest: 0 }));
      next.newest = Math.max(next.newest, f.modified.getTime());
      d = next;
    }
    d.files.set(parts.at(-1)!, { size: f.size, modified: f.modified });
  }
  const out: ArtifactNode[] = [];
  const walk = (d: Dir, prefix: string) => {
    for (const name of [...new Set([...d.dirs.keys(), ...d.files.keys()])].sort()) {
      const rel = prefix ? `${prefix}/${name}` : name;
      const dir = d.dirs.get(name);
      if (dir) {
        out.push({
          name,
          path: rel,
          type: 'directory',
          size: 0,
          mime_type: null,
          modified_at: new Date(dir.newest).toISOString(),
        });
        walk(dir, rel);
      }
      const file = d.files.get(name);
      if (file)
        out.push({
          name,
          path: rel,
          type: 'file',
          size: file.size,
          mime_type: mimeTypeOf(name),
          modified_at: file.modified.toISOString(),
        });
    }
  };
  walk(root, '');
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

export async function artifactContent(
  files: FileStore,
  outputPrefix: string,
  rel: string,
  urls: { download: string; resource: string },
) {
  const file = await resolveArtifact(files, outputPrefix, rel);
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
  if (!isTextType(mime))
    return {
      ...base,
      kind: mime.startsWith('image/') ? ('image' as const) : ('binary' as const),
      preview: null,
      truncated: false,
    };
  const length = Math.min(PREVIEW_BYTES, file.size);
  const chunks: Buffer[] = [];
  if (length > 0) {
    const s = await files.stream(file.key, { start: 0, end: length - 1 });
    if (!s) throw notFound(`artifact ${file.rel}`);
    for await (const c of s) chunks.push(c as Buffer);
  }
  const buf = Buffer.concat(chunks).subarray(0, length);
  // Cut at a whole UTF-8 character so the preview never ends in a broken one.
  const end = file.size > buf.length ? wholeCharsEnd(buf, buf.length) : buf.length;
  return {
    ...base,
    kind: 'text' as const,
    preview: buf.subarray(0, end).toString('utf8'),
    truncated: file.size > buf.length,
  };
}

export async function artifactStream(files: FileStore, key: string): Promise<Readable> {
  const s = await files.stream(key);
  if (!s) throw notFound('artifact');
  return s;
}

/** A ZIP of the whole output folder, produced as it is sent: each file is opened only when its turn comes. */
export async function artifactsZip(files: FileStore, outputPrefix: string): Promise<Readable> {
  const zip = new yazl.ZipFile();
  for (const node of await artifactTree(files, outputPrefix)) {
    if (node.type === 'directory') zip.addEmptyDirectory(node.path);
    else {
      zip.addReadStreamLazy(node.path, { mtime: new Date(node.modified_at), size: node.size }, (cb) => {
        files.stream(`${outputPrefix}/${node.path}`).then(
          (s) => (s ? cb(null, s) : cb(new Error(`artifact ${node.path} is no longer stored`), undefined as never)),
          (err: Error) => cb(err, undefined as never),
        );
      });
    }
  }
  zip.end();
  return zip.outputStream as unknown as Readable;
}

/**
 * At the end of a task, in a store that hands out download URLs: the ZIP of its outputs is made once
 * (from the local work folder, before it is published) and stored beside them, so that
 * GET /tasks/{id}/artifacts is a redirect to it (spec 4.1 "when already uploaded to object storage").
 */
export async function storeArtifactsZip(files: FileStore, outputPrefix: string, zipKey: string): Promise<void> {
  const work = files.workDir(outputPrefix);
  const zipFile = `${files.workDir(zipKey)}.part`;
  await mkdir(path.dirname(zipFile), { recursive: true });
  try {
    // The work folder read as a local store of its own: the same ZIP as GET /tasks/{id}/artifacts streams.
    const local = new LocalFileStore(path.dirname(work));
    await pipeline(await artifactsZip(local, path.basename(work)), createWriteStream(zipFile));
    await files.putFile(zipKey, zipFile, 'application/zip');
  } finally {
    await rm(zipFile, { force: true });
  }
}
