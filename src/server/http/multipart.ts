import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { MultipartForm } from '../../contract/fields.js';
import { HttpError, RequestValidationError } from '../errors.js';
import { randomToken } from '../store/ids.js';

/** The counts and sizes every multipart scope registers with busboy (multipart-scope.ts); 413 past them. */
export const FORM_LIMITS = { files: 20, fields: 50, fieldSize: 64 * 1024, parts: 80 } as const;

export interface UploadedPart {
  field: string;
  /** The client's file name reduced to a safe base name. */
  filename: string;
  mimeType: string;
  size: number;
  sha256: string;
  /** Where the bytes are now; the caller moves or deletes it. */
  tmpPath: string;
}

export interface MultipartResult {
  fields: Record<string, string>;
  files: UploadedPart[];
  /** Removes every temporary file not moved away. */
  discard(): Promise<void>;
}

/** A client's file name as a plain base name: no directories, no control characters. */
export function safeFileName(name: string | undefined): string {
  const base = path.posix
    .basename(String(name ?? '').replace(/\\/g, '/'))
    .replace(/[\u0000-\u001f\u007f/]/g, '')
    .trim();
  return base && base !== '.' && base !== '..' ? base.slice(0, 200) : 'file';
}

const refuse = (loc: string, msg: string, type = 'value_error') =>
  new RequestValidationError([{ loc: ['body', loc], msg, type }], false);

function describe(form: MultipartForm): string {
  const parts = [...Object.keys(form.files).map((f) => `"${f}" (file)`), ...form.fields.map((f) => `"${f}"`)];
  return parts.join(', ');
}

/**
 * A failure while reading the body is the client's unless the disk raised it: busboy's parse errors
 * (no boundary, a truncated or garbage body, a boundary over 256 bytes) and @fastify/multipart's
 * own 4xx arrive as plain errors, while a failed write to the temporary file carries a syscall.
 */
function malformed(err: unknown): RequestValidationError | null {
  if (err instanceof HttpError || err instanceof RequestValidationError) return null;
  const e = err as { statusCode?: number; syscall?: string; message?: string };
  if (e.syscall !== undefined || (e.statusCode !== undefined && e.statusCode >= 500)) return null;
  return new RequestValidationError(
    [
      {
        loc: ['body'],
        msg: `malformed multipart/form-data body: ${e.message ?? 'unreadable'}`,
        type: 'multipart_invalid',
      },
    ],
    false,
  );
}

/**
 * Reads a multipart request against its form: text fields into a record, file parts streamed to
 * disk under tmpDir with their size and SHA-256. A part the form does not name, a text field given
 * twice, more files than a field takes or an empty file is refused (never silently dropped); a body
 * that is not well-formed multipart is the client's error, in the surface's validation shape.
 * Fastify's multipart limits raise 413 on the way.
 */
export async function readMultipart(
  request: FastifyRequest,
  tmpDir: string,
  form: MultipartForm,
): Promise<MultipartResult> {
  if (!request.isMultipart()) {
    throw new RequestValidationError(
      [{ loc: ['body'], msg: 'send multipart/form-data', type: 'multipart_expected' }],
      false,
    );
  }
  const fields: Record<string, string> = {};
  // Made when the first file arrives: a form of text fields alone never touches the disk.
  let tmpDirReady: Promise<unknown> | undefined;
  const files: UploadedPart[] = [];
  const discard = async () => {
    await Promise.all(files.map((f) => rm(f.tmpPath, { force: true })));
  };
  const acceptField = (name: string, value: string) => {
    if (!form.fields.includes(name)) {
      const hint =
        name in form.files
          ? `"${name}" takes a file, not text`
          : `unknown field "${name}"; this form takes ${describe(form) || 'no fields'}`;
      throw refuse(name, hint, 'extra_forbidden');
    }
    if (name in fields) throw refuse(name, `"${name}" was given twice; send it once`);
    fields[name] = value;
  };
  try {
    for await (const part of request.parts()) {
      const name = part.fieldname;
      if (part.type === 'field') {
        // busboy cuts a value past fieldSize short and says so only here: refuse rather than keep the cut value.
        if (part.valueTruncated)
          throw new HttpError(
            'PAYLOAD_TOO_LARGE',
            `the field "${name}" is longer than ${FORM_LIMITS.fieldSize / 1024} KiB`,
            { status: 413 },
          );
        acceptField(name, String(part.value));
        continue;
      }
      const max = Object.hasOwn(form.files, name) ? form.files[name] : undefined;
      if (max === undefined) {
        const hint = form.fields.includes(name)
          ? `"${name}" is a text field, not a file`
          : `unknown file field "${name}"; files go in ${Object.keys(form.files)
              .map((f) => `"${f}"`)
              .join(' or ')} parts`;
        throw refuse(name, hint, 'extra_forbidden');
      }
      if (files.filter((f) => f.field === name).length >= max)
        throw refuse(name, max === 1 ? `only one "${name}" part is taken` : `at most ${max} "${name}" parts are taken`);
      await (tmpDirReady ??= mkdir(tmpDir, { recursive: true }));
      const tmpPath = path.join(tmpDir, `up-${randomToken(12)}`);
      const hash = createHash('sha256');
      let size = 0;
      const entry: UploadedPart = {
        field: name,
        filename: safeFileName(part.filename),
        mimeType: part.mimetype || 'application/octet-stream',
        size: 0,
        sha256: '',
        tmpPath,
      };
      files.push(entry);
      const counter = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          size += chunk.length;
          hash.update(chunk);
          cb(null, chunk);
        },
      });
      await pipeline(part.file, counter, createWriteStream(tmpPath));
      if (part.file.truncated)
        throw new HttpError('PAYLOAD_TOO_LARGE', `file ${entry.filename} is larger than the upload limit`, {
          status: 413,
        });
      if (size === 0) throw refuse(name, `the file "${entry.filename}" is empty`);
      entry.size = size;
      entry.sha256 = hash.digest('hex');
    }
  } catch (err) {
    await discard();
    const e = err as { statusCode?: number; code?: string; message?: string };
    if (e.code === 'FST_REQ_FILE_TOO_LARGE' || e.statusCode === 413) {
      throw new HttpError('PAYLOAD_TOO_LARGE', `upload too large: ${e.message ?? 'over the limit'}`, { status: 413 });
    }
    if (e.code === 'FST_FILES_LIMIT' || e.code === 'FST_FIELDS_LIMIT' || e.code === 'FST_PARTS_LIMIT') {
      throw new HttpError('PAYLOAD_TOO_LARGE', e.message ?? 'too many parts', { status: 413 });
    }
    throw malformed(err) ?? err;
  }
  return { fields, files, discard };
}

export interface Upload {
  fileName: string;
  mimeType: string;
  data: Buffer;
  fields: Record<string, string>;
}

/**
 * One file part named `file` plus the form's text fields, read into memory (LiveDoc uploads, which
 * extract the text at once). A request that is not multipart, or has no file, names `file`.
 */
export async function readUpload(
  request: FastifyRequest,
  form: MultipartForm,
  tmpDir = path.join(os.tmpdir(), 'facet-uploads'),
): Promise<Upload> {
  if (!request.isMultipart()) {
    throw new RequestValidationError(
      [
        {
          loc: ['body', 'file'],
          msg: 'Field required: send multipart/form-data with a file part named "file"',
          type: 'missing',
        },
      ],
      true,
    );
  }
  const parts = await readMultipart(request, tmpDir, form);
  try {
    const file = parts.files.find((f) => f.field === 'file');
    if (!file)
      throw new RequestValidationError([{ loc: ['body', 'file'], msg: 'Field required', type: 'missing' }], true);
    if (parts.fields.title !== undefined && parts.fields.title.length > 500) {
      throw new RequestValidationError(
        [{ loc: ['body', 'title'], msg: 'title is at most 500 characters', type: 'too_big' }],
        false,
      );
    }
    return {
      fileName: file.filename,
      mimeType: file.mimeType,
      data: await readFile(file.tmpPath),
      fields: parts.fields,
    };
  } finally {
    await parts.discard();
  }
}
