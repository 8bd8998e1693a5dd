import type { Readable } from 'node:stream';
import { HttpError } from '../errors.js';

/** One stored file: its key (a "/"-separated path relative to the store), size and modification time. */
export interface StoredFile {
  key: string;
  size: number;
  modified: Date;
}

export interface PresignOptions {
  /** Lifetime of the URL in seconds. */
  expiresIn: number;
  /** The name the download is saved under (Content-Disposition: attachment). */
  fileName?: string;
  contentType?: string;
}

/**
 * Where every file the server keeps goes (uploads, task inputs and outputs, artifact ZIPs, decks,
 * previews, mindmaps, landing pages): one interface, two implementations — a local directory (the
 * files dir, as always) and an S3-compatible object store (`--object-store`). Keys are relative
 * "/"-separated paths such as `tasks/<id>/output/image-1.png`; the services never build file paths.
 */
export interface FileStore {
  readonly kind: 'local' | 's3';
  /** Where it is, for messages (a directory, or s3://bucket/prefix at an endpoint). */
  readonly location: string;
  /** Writes a whole object. */
  put(key: string, data: Buffer | string, contentType?: string): Promise<void>;
  /** Writes an object from a local file, streamed (never read whole into memory). */
  putFile(key: string, localPath: string, contentType?: string): Promise<void>;
  /** The whole object, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /** The object (or its bytes [start, end] inclusive) as a stream, or null when there is none. */
  stream(key: string, range?: { start: number; end: number }): Promise<Readable | null>;
  /** Size and time of an object, or null when there is none. */
  stat(key: string): Promise<StoredFile | null>;
  /** Every object under a folder prefix (recursive), sorted by key; keys are full keys. */
  list(prefix: string): Promise<StoredFile[]>;
  /** Removes one object (nothing when it is missing). */
  delete(key: string): Promise<void>;
  /** Removes everything under a folder prefix. */
  deletePrefix(prefix: string): Promise<void>;
  /**
   * A local directory in which an engine writes a tree of files for `prefix` (task outputs, deck
   * previews): the store's own folder for a local store, a scratch folder for an object store.
   */
  workDir(prefix: string): string;
  /** Makes what was written in workDir(prefix) the stored files under prefix (a no-op for a local store). */
  publishDir(prefix: string): Promise<void>;
  /**
   * A short-lived URL that downloads the object without credentials, or null when the store has no
   * such URLs (a local store: the server sends the file itself).
   */
  presignGet(key: string, options: PresignOptions): Promise<string | null>;
  /** The store's identity: instances that see the same one share their files. */
  identity(): Promise<string>;
}

/** Seconds a caller is asked to wait when the object store cannot be reached. */
const STORE_RETRY_AFTER_S = 5;

/**
 * An object store that failed or refused (not a missing object), naming the operation: a 502 when it
 * refused, a 503 with Retry-After when it could not be reached (`outage`: the job queue then puts the
 * task back without counting the attempt, jobs/run-job.ts).
 */
export class ObjectStoreError extends HttpError {
  readonly outage: boolean;
  constructor(message: string, options: { outage?: boolean } = {}) {
    super(
      'OBJECT_STORE_ERROR',
      message,
      options.outage ? { status: 503, headers: { 'retry-after': String(STORE_RETRY_AFTER_S) } } : { status: 502 },
    );
    this.outage = options.outage ?? false;
  }
}

/** A key from parts (which may hold "/"), every segment checked: no empty, ".", ".." or backslash segment reaches a store. */
export function fileKey(...parts: string[]): string {
  const key = parts.join('/');
  for (const s of key.split('/')) {
    if (!s || s === '.' || s === '..' || s.includes('\\') || s.includes('\0'))
      throw new Error(`unsafe file key ${JSON.stringify(key)}`);
  }
  return key;
}
