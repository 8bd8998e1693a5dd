import type { FastifyRequest } from 'fastify';
import { HttpError, RequestValidationError } from '../errors.js';

export interface Upload {
  fileName: string;
  mimeType: string;
  data: Buffer;
  fields: Record<string, string>;
}

/**
 * Reads a multipart request with one file part named `file` and optional text fields. A request
 * that is not multipart, or has no file, is a validation failure naming `file`.
 */
export async function readUpload(request: FastifyRequest): Promise<Upload> {
  if (!request.isMultipart()) {
    throw new RequestValidationError([{ loc: ['body', 'file'], msg: 'Field required: send multipart/form-data with a file part named "file"', type: 'missing' }], true);
  }
  const fields: Record<string, string> = {};
  let file: Omit<Upload, 'fields'> | null = null;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      const data = await part.toBuffer();
      if (part.file.truncated) throw new HttpError('PAYLOAD_TOO_LARGE', 'the file is larger than the upload limit', { status: 413 });
      if (part.fieldname === 'file' && !file) file = { fileName: part.filename || 'upload', mimeType: part.mimetype, data };
    } else {
      fields[part.fieldname] = String(part.value);
    }
  }
  if (!file) throw new RequestValidationError([{ loc: ['body', 'file'], msg: 'Field required', type: 'missing' }], true);
  if (file.data.length === 0) throw new RequestValidationError([{ loc: ['body', 'file'], msg: 'the file is empty', type: 'value_error' }], false);
  if (fields.title !== undefined && fields.title.length > 500) {
    throw new RequestValidationError([{ loc: ['body', 'title'], msg: 'title is at most 500 characters', type: 'too_big' }], false);
  }
  return { ...file, fields };
}
