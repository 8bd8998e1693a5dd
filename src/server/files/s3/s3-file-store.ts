import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, rm, stat as statFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FileStore, PresignOptions, StoredFile } from '../file-store.js';
import { S3Client, unescapeXml } from './s3-client.js';
import { describeS3, type S3Config } from './s3-config.js';

const IDENTITY_KEY = '.facet-files-id';

/** Files of a local folder, relative, "/"-separated (symlinks left out: an engine's output is regular files). */
async function localFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await localFiles(path.join(dir, e.name), rel)));
    else if (e.isFile()) out.push(rel);
  }
  return out;
}

/**
 * Files in an S3-compatible bucket, under an optional prefix. Engines that write trees of files (task
 * outputs, deck previews) write them in a local scratch folder that publishDir uploads; every read
 * comes from the bucket, so any instance serves what any other stored.
 */
export class S3FileStore implements FileStore {
  readonly kind = 's3' as const;
  readonly location: string;
  private readonly client: S3Client;

  constructor(
    readonly config: S3Config,
    /** A local folder for work in progress (the files dir of this instance). */
    private readonly scratch: string,
  ) {
    this.client = new S3Client(config);
    this.location = describeS3(config);
  }

  private full(key: string): string {
    return this.config.prefix ? `${this.config.prefix}/${key}` : key;
  }

  async put(key: string, data: Buffer | string, contentType?: string): Promise<void> {
    const k = this.full(key);
    const res = await this.client.send({ method: 'PUT', key: k, body: Buffer.from(data), headers: contentType ? { 'content-type': contentType } : {} });
    if (res.statusCode !== 200) return this.client.fail(res, { method: 'PUT', key: k });
    await res.body.dump();
  }

  async putFile(key: string, localPath: string, contentType?: string): Promise<void> {
    const k = this.full(key);
    const { size } = await statFile(localPath);
    const res = await this.client.send({ method: 'PUT', key: k, body: { stream: createReadStream(localPath), length: size }, headers: contentType ? { 'content-type': contentType } : {} });
    if (res.statusCode !== 200) return this.client.fail(res, { method: 'PUT', key: k });
    await res.body.dump();
  }

  async get(key: string): Promise<Buffer | null> {
    const s = await this.stream(key);
    if (!s) return null;
    const chunks: Buffer[] = [];
    for await (const c of s) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  }

  async stream(key: string, range?: { start: number; end: number }): Promise<Readable | null> {
    const k = this.full(key);
    const res = await this.client.send({ method: 'GET', key: k, headers: range ? { range: `bytes=${range.start}-${range.end}` } : {} });
    if (res.statusCode === 404) {
      await res.body.dump();
      return null;
    }
    if (res.statusCode !== 200 && res.statusCode !== 206) return this.client.fail(res, { method: 'GET', key: k });
    return res.body;
  }

  async stat(key: string): Promise<StoredFile | null> {
    const k = this.full(key);
    const res = await this.client.send({ method: 'HEAD', key: k });
    await res.body.dump();
    if (res.statusCode === 404) return null;
    if (res.statusCode !== 200) return this.client.fail(res, { method: 'HEAD', key: k });
    const modified = new Date(String(res.headers['last-modified'] ?? ''));
    return { key, size: Number(res.headers['content-length'] ?? 0), modified: Number.isNaN(modified.getTime()) ? new Date(0) : modified };
  }

  /**
   * ListObjects (version 1) paged by marker, the last key seen: every S3-compatible server has it,
   * while some fail to make version 2's continuation tokens.
   */
  async list(prefix: string): Promise<StoredFile[]> {
    const folder = `${this.full(prefix)}/`;
    const strip = this.config.prefix ? this.config.prefix.length + 1 : 0;
    const out: StoredFile[] = [];
    let marker: string | undefined;
    for (;;) {
      const query: Record<string, string> = { prefix: folder, ...(marker ? { marker } : {}) };
      const res = await this.client.send({ method: 'GET', key: null, query });
      if (res.statusCode !== 200) return this.client.fail(res, { method: 'GET', key: `${folder}*` });
      const xml = await res.body.text();
      let last: string | undefined;
      for (const m of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
        const key = unescapeXml(/<Key>([\s\S]*?)<\/Key>/.exec(m[1])?.[1] ?? '');
        const size = Number(/<Size>(\d+)<\/Size>/.exec(m[1])?.[1] ?? 0);
        const modified = new Date(/<LastModified>([^<]*)<\/LastModified>/.exec(m[1])?.[1] ?? 0);
        last = key;
        if (key && !key.endsWith('/')) out.push({ key: key.slice(strip), size, modified });
      }
      if (!/<IsTruncated>true<\/IsTruncated>/.test(xml) || !last) break;
      marker = last;
    }
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async delete(key: string): Promise<void> {
    const k = this.full(key);
    const res = await this.client.send({ method: 'DELETE', key: k });
    await res.body.dump();
    if (res.statusCode !== 204 && res.statusCode !== 200 && res.statusCode !== 404) return this.client.fail(res, { method: 'DELETE', key: k });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await this.deleteKeys((await this.list(prefix)).map((f) => f.key));
  }

  /** One after another: the folders that go are small (one task's outputs, one resource), and some S3-compatible servers fail parallel deletes in one folder. */
  private async deleteKeys(keys: string[]): Promise<void> {
    for (const k of keys) await this.delete(k);
  }

  workDir(prefix: string): string {
    return path.join(this.scratch, 'work', ...prefix.split('/'));
  }

  /** Uploads the work folder's files under prefix, removes stored files it no longer has (an earlier attempt's), then the folder. */
  async publishDir(prefix: string): Promise<void> {
    const dir = this.workDir(prefix);
    const files = await localFiles(dir);
    for (const rel of files) await this.putFile(`${prefix}/${rel}`, path.join(dir, ...rel.split('/')));
    const now = new Set(files.map((rel) => `${prefix}/${rel}`));
    await this.deleteKeys((await this.list(prefix)).map((f) => f.key).filter((k) => !now.has(k)));
    await rm(dir, { recursive: true, force: true });
  }

  presignGet(key: string, options: PresignOptions): string {
    const overrides: Record<string, string> = {};
    if (options.fileName) overrides['response-content-disposition'] = `attachment; filename*=UTF-8''${encodeURIComponent(options.fileName)}`;
    if (options.contentType) overrides['response-content-type'] = options.contentType;
    return this.client.presignGet(this.full(key), options.expiresIn, overrides);
  }

  /**
   * A random id kept in an object at the root of the prefix, made by the first instance (a conditional
   * create where the store supports it, then read back, so instances starting together agree).
   * Reading it also proves at start-up that the bucket exists and the credentials work.
   */
  async identity(): Promise<string> {
    let id = (await this.get(IDENTITY_KEY))?.toString('utf8').trim();
    if (!id) {
      const k = this.full(IDENTITY_KEY);
      const res = await this.client.send({ method: 'PUT', key: k, body: Buffer.from(`${randomBytes(12).toString('hex')}\n`), headers: { 'if-none-match': '*', 'content-type': 'text/plain' } });
      await res.body.dump();
      // 412: another instance made it first, which is as good.
      if (res.statusCode !== 200 && res.statusCode !== 412) return this.client.fail(res, { method: 'PUT', key: k });
      id = (await this.get(IDENTITY_KEY))?.toString('utf8').trim();
    }
    if (!id) throw new Error(`the identity object ${IDENTITY_KEY} of ${this.location} could not be read back`);
    return `s3:${id}`;
  }
}
