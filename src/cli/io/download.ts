import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { HttpResponse } from '../../client/http.js';
import type { Deps } from '../deps.js';
import { CliError, EXIT } from '../exit-codes.js';

/** A signed link's answer must be a 200; anything else is the download failing (404: exit 4). */
export function requireOk(res: HttpResponse): HttpResponse {
  if (res.statusCode !== 200) {
    res.body.resume();
    throw new CliError(
      `download failed: HTTP ${res.statusCode}`,
      res.statusCode === 404 ? EXIT.notFound : EXIT.failure,
    );
  }
  return res;
}

/** Streams a download to a file, or to stdout for `-` (left open: other output may follow). */
export async function saveBody(deps: Deps, res: HttpResponse, target: string): Promise<void> {
  if (target === '-') await pipeline(res.body, deps.streams.stdout as NodeJS.WritableStream, { end: false });
  else await pipeline(res.body, createWriteStream(target));
}

/** The file name a Content-Disposition header gives (RFC 6266 filename*), without any folder. */
export function dispositionFileName(disposition: string | string[] | undefined): string | undefined {
  const m = /filename\*=UTF-8''([^;]+)/i.exec(Array.isArray(disposition) ? disposition[0] : (disposition ?? ''));
  if (!m) return undefined;
  const name = decodeURIComponent(m[1]).split(/[\\/]/).pop();
  return name || undefined;
}
