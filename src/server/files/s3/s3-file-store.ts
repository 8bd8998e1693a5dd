import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  PutObjectCommand,
  S3ServiceException,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { ObjectStoreError, type FileStore, type PresignOptions, type StoredFile } from '../file-store.js';
import { createS3Client } from './s3-client.js';
import { describeS3, type S3Config } from './s3-config.js';
import { isTransientStoreError, withStoreRetries, type StoreObserver } from './s3-retry.js';

const IDENTITY_KEY = '.facet-files-id';
/** Files at least this big go up in parts (S3's smallest part is 5 MiB). */
const PART_SIZE = 8 * 1024 * 1024;

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

const missing = (err: unknown) =>
  err instanceof S3ServiceException &&
  (err.$metadata.httpStatusCode === 404 || err.name === 'NoSuchKey' || err.name === 'NotFound');

/**
 * Files in an S3-compatible bucket, under an optional prefix, through the AWS SDK. Engines that write
 * trees of files (task outputs, deck previews) write them in a local scratch folder that publishDir
 * uploads; every read comes from the bucket, so any instance serves what any other stored.
 */
export class S3FileStore implements FileStore {
  readonly kind = 's3' as const;
  readonly location: string;
  private readonly client: S3Client;

  constructor(
    readonly config: S3Config,
    /** A local folder for work in progress (the files dir of this instance). */
    private readonly scratch: string,
    private readonly observer?: StoreObserver,
  ) {
    this.client = createS3Client(config);
    this.location = describeS3(config);
  }

  private full(key: string): string {
    return this.config.prefix ? `${this.config.prefix}/${key}` : key;
  }

  /**
   * Runs one operation, retried through an outage for the configured window (s3-retry.ts; `once`:
   * a single attempt, for probes that must answer at once); a refusal or a store still unreachable
   * becomes an ObjectStoreError naming it, marked as an outage when waiting might have helped.
   */
  private async call<T>(what: string, key: string, fn: () => Promise<T>, once = false): Promise<T> {
    try {
      return await withStoreRetries(what, fn, once ? 0 : this.config.retryWindowMs, this.observer);
    } catch (err) {
      if (err instanceof ObjectStoreError) throw err;
      const e = err as Error & { code?: string; $metadata?: { httpStatusCode?: number } };
      const status = e.$metadata?.httpStatusCode;
      const detail = status ? `HTTP ${status} ${e.name}: ${e.message}` : `${e.code ?? e.name}: ${e.message}`;
      throw new ObjectStoreError(`the object store failed ${what} ${key} on ${this.location}: ${detail}`, {
        outage: isTransientStoreError(err),
      });
    }
  }

  async put(key: string, data: Buffer | string, contentType?: string): Promise<void> {
    const Key = this.full(key);
    await this.call('PUT', Key, () =>
      this.client.send(
        new PutObjectCommand({
          Bucket: this.config.bucket,
          Key,
          Body: Buffer.from(data),
          ContentType: contentType ?? 'application/octet-stream',
        }),
      ),
    );
  }

  /** Streamed from the file, in parts when it is big (lib-storage's managed upload). */
  async putFile(key: string, localPath: string, contentType?: string): Promise<void> {
    const Key = this.full(key);
    await this.call('PUT', Key, () =>
      new Upload({
        client: this.client,
        params: {
          Bucket: this.config.bucket,
          Key,
          Body: createReadStream(localPath),
          ContentType: contentType ?? 'application/octet-stream',
        },
        partSize: PART_SIZE,
        queueSize: 2,
      }).done(),
    );
  }

  async get(key: string): Promise<Buffer | null> {
    const s = await this.stream(key);
    if (!s) return null;
    const chunks: Buffer[] = [];
    for await (const c of s) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  }

  async stream(key: string, range?: { start: number; end: number }): Promise<Readable | null> {
    const Key = this.full(key);
    return this.call('GET', Key, async () => {
      try {
        const res = await this.client.send(
          new GetObjectCommand({
            Bucket: this.config.bucket,
            Key,
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        );
        return res.Body as Readable;
      } catch (err) {
        if (missing(err)) return null;
        throw err;
      }
    });
  }

  async stat(key: string): Promise<StoredFile | null> {
    const Key = this.full(key);
    return this.call('HEAD', Key, async () => {
      try {
        const res = await this.client.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key }));
        return { key, size: Number(res.ContentLength ?? 0), modified: res.LastModified ?? new Date(0) };
      } catch (err) {
        if (missing(err)) return null;
        throw err;
      }
    });
  }

  /**
   * ListObjects (version 1) paged by marker, the last key seen: every S3-compatible server has it,
   * while some fail to make version 2's continuation tokens.
   */
  async list(prefix: string): Promise<StoredFile[]> {
    const folder = `${this.full(prefix)}/`;
    const strip = this.config.prefix ? this.config.prefix.length + 1 : 0;
    const out: StoredFile[] = [];
    let Marker: string | undefined;
    for (;;) {
      const page = await this.call('LIST', `${folder}*`, () =>
        this.client.send(new ListObjectsCommand({ Bucket: this.config.bucket, Prefix: folder, Marker })),
      );
      const contents = page.Contents ?? [];
      for (const o of contents)
        if (o.Key && !o.Key.endsWith('/'))
          out.push({ key: o.Key.slice(strip), size: Number(o.Size ?? 0), modified: o.LastModified ?? new Date(0) });
      const last = contents.at(-1)?.Key;
      if (!page.IsTruncated || !last) break;
      Marker = page.NextMarker ?? last;
    }
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async delete(key: string): Promise<void> {
    const Key = this.full(key);
    await this.call('DELETE', Key, async () => {
      try {
        await this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key }));
      } catch (err) {
        if (!missing(err)) throw err;
      }
    });
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

  presignGet(key: string, options: PresignOptions): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.config.bucket,
      Key: this.full(key),
      ...(options.fileName
        ? { ResponseContentDisposition: `attachment; filename*=UTF-8''${encodeURIComponent(options.fileName)}` }
        : {}),
      ...(options.contentType ? { ResponseContentType: options.contentType } : {}),
    });
    return getSignedUrl(this.client, command, {
      expiresIn: Math.max(1, Math.min(604_800, Math.floor(options.expiresIn))),
    });
  }

  /**
   * One GET, not retried: the identity is read at start (a store that cannot be reached stops it)
   * and by /readyz, which must say at once that the store is away rather than wait for it.
   */
  private async readOnce(key: string): Promise<Buffer | null> {
    const Key = this.full(key);
    return this.call(
      'GET',
      Key,
      async () => {
        try {
          const res = await this.client.send(new GetObjectCommand({ Bucket: this.config.bucket, Key }));
          return Buffer.from(await res.Body!.transformToByteArray());
        } catch (err) {
          if (missing(err)) return null;
          throw err;
        }
      },
      true,
    );
  }

  /**
   * A random id kept in an object at the root of the prefix, made by the first instance (a conditional
   * create where the store supports it, then read back, so instances starting together agree).
   * Reading it also proves at start-up that the bucket exists and the credentials work.
   */
  async identity(): Promise<string> {
    let id = (await this.readOnce(IDENTITY_KEY))?.toString('utf8').trim();
    if (!id) {
      const Key = this.full(IDENTITY_KEY);
      await this.call(
        'PUT',
        Key,
        async () => {
          try {
            await this.client.send(
              new PutObjectCommand({
                Bucket: this.config.bucket,
                Key,
                Body: `${randomBytes(12).toString('hex')}\n`,
                ContentType: 'text/plain',
                IfNoneMatch: '*',
              }),
            );
          } catch (err) {
            // 412: another instance made it first, which is as good.
            if (!(err instanceof S3ServiceException && err.$metadata.httpStatusCode === 412)) throw err;
          }
        },
        true,
      );
      id = (await this.readOnce(IDENTITY_KEY))?.toString('utf8').trim();
    }
    if (!id) throw new Error(`the identity object ${IDENTITY_KEY} of ${this.location} could not be read back`);
    return `s3:${id}`;
  }
}
