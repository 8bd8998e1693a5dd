import { openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { FormData } from 'undici';

/** A multipart form from text fields and local files; files are streamed from disk, not read whole. */
export async function buildForm(fields: Record<string, string | number | boolean | undefined>, files: Array<{ field: string; file: string }>): Promise<FormData> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.append(k, String(v));
  for (const f of files) {
    const st = await stat(f.file).catch((err: NodeJS.ErrnoException) => {
      throw new Error(`cannot read ${f.file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
    });
    if (!st.isFile()) throw new Error(`${f.file} is not a file`);
    form.append(f.field, await openAsBlob(f.file), path.basename(f.file));
  }
  return form;
}
