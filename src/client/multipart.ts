import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';

/**
 * A multipart/form-data body of text fields and local files, written by hand (RFC 7578) so the
 * CLI needs no HTTP library for uploads: files are streamed from disk, and the total length is
 * known beforehand, so the server sees a Content-Length and can refuse an oversized upload early.
 */
export class MultipartBody {
  readonly boundary = `facet-${randomBytes(12).toString('hex')}`;

  constructor(
    readonly fields: Array<[string, string]>,
    readonly files: Array<{ field: string; path: string; name: string; size: number }>,
  ) {}

  get contentType(): string {
    return `multipart/form-data; boundary=${this.boundary}`;
  }

  private fieldHead(name: string): Buffer {
    return Buffer.from(`--${this.boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n`);
  }

  private fileHead(f: { field: string; name: string }): Buffer {
    return Buffer.from(
      `--${this.boundary}\r\nContent-Disposition: form-data; name="${quote(f.field)}"; filename="${quote(f.name)}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
  }

  private get tail(): Buffer {
    return Buffer.from(`--${this.boundary}--\r\n`);
  }

  get length(): number {
    let n = this.tail.length;
    for (const [k, v] of this.fields) n += this.fieldHead(k).length + Buffer.byteLength(v) + 2;
    for (const f of this.files) n += this.fileHead(f).length + f.size + 2;
    return n;
  }

  /** The body, once: file contents read from disk as it is sent. */
  stream(): Readable {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- an async generator function has no lexical this
    const self = this;
    return Readable.from(
      (async function* () {
        for (const [k, v] of self.fields) yield Buffer.concat([self.fieldHead(k), Buffer.from(v), CRLF]);
        for (const f of self.files) {
          yield self.fileHead(f);
          for await (const chunk of createReadStream(f.path)) yield chunk as Buffer;
          yield CRLF;
        }
        yield self.tail;
      })(),
      { objectMode: false },
    );
  }
}

const CRLF = Buffer.from('\r\n');

/** A name inside a Content-Disposition parameter, escaped as browsers (and the WHATWG spec) do. */
function quote(s: string): string {
  return s.replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/"/g, '%22');
}

/** A multipart form from text fields and local files; files are streamed from disk, not read whole. */
export async function buildForm(
  fields: Record<string, string | number | boolean | undefined>,
  files: Array<{ field: string; file: string }>,
): Promise<MultipartBody> {
  const texts: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) texts.push([k, String(v)]);
  const parts = [];
  for (const f of files) {
    const st = await stat(f.file).catch((err: NodeJS.ErrnoException) => {
      throw new Error(`cannot read ${f.file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
    });
    if (!st.isFile()) throw new Error(`${f.file} is not a file`);
    parts.push({ field: f.field, path: f.file, name: path.basename(f.file), size: st.size });
  }
  return new MultipartBody(texts, parts);
}
