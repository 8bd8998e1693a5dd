import { pipeline, Transform, type Readable } from 'node:stream';
import { constants, createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { OutboundFetchError } from './errors.js';
import { formatBytes } from './read-capped.js';

/** What the outbound fetch offers to decode (Accept-Encoding). */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/** More codings than this on one response is an attack, not a page (undici's fetch uses the same bound). */
const MAX_CODINGS = 5;

// Lenient at a truncated end, as browsers, curl and undici's fetch are (Z_SYNC_FLUSH).
const zlibLenient = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
const DECODERS: Record<string, () => Transform> = {
  gzip: () => createGunzip(zlibLenient),
  'x-gzip': () => createGunzip(zlibLenient),
  deflate: () => createInflate(zlibLenient),
  br: () =>
    createBrotliDecompress({ flush: constants.BROTLI_OPERATION_FLUSH, finishFlush: constants.BROTLI_OPERATION_FLUSH }),
};

export interface DecodedBody {
  body: Readable;
  /** The codings undone, in the header's order ('gzip'); empty when the body is passed as it came. */
  codings: string[];
  /** The decoder's own error (corrupt gzip, say) as a failure in words; null when no decoder failed. */
  failure(): OutboundFetchError | null;
}

/**
 * The response body with its Content-Encoding undone by Node's zlib, as a stream, so the caller's
 * cap (read-capped.ts) applies to the decompressed bytes: a gzip bomb is cut at the cap as it
 * inflates, never held. The compressed input is held to the same cap (a stream of empty gzip
 * members inflates to nothing but must not run on). An encoding not decoded here passes through
 * unchanged, as undici's fetch does; `identity` is no encoding.
 */
export function decodeBody(
  raw: Readable,
  contentEncoding: string | string[] | undefined,
  maxBytes: number,
  url: string,
): DecodedBody {
  const header = Array.isArray(contentEncoding) ? contentEncoding.join(',') : (contentEncoding ?? '');
  const codings = header
    .toLowerCase()
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c && c !== 'identity');
  const asIs: DecodedBody = { body: raw, codings: [], failure: () => null };
  if (codings.length === 0) return asIs;
  if (codings.length > MAX_CODINGS) {
    raw.on('error', () => undefined);
    raw.destroy();
    throw new OutboundFetchError(
      'network',
      `the response from ${url} has ${codings.length} content encodings; at most ${MAX_CODINGS} are decoded`,
      url,
    );
  }
  if (!codings.every((c) => c in DECODERS)) return asIs;
  // The last coding applied is undone first.
  const decoders = [...codings].reverse().map((c) => DECODERS[c]());
  const stages = [raw, inputCap(maxBytes, url), ...decoders];
  // The first stage to fail is where the error began (pipeline then destroys the others with it):
  // only a decoder's own error is a decoding failure, not a reset connection or the cap.
  let first: { stage: number; err: Error } | undefined;
  stages.forEach((stage, i) => stage.on('error', (err: Error) => void (first ??= { stage: i, err })));
  // pipeline destroys every stage when one fails or the reader stops, so the connection closes too.
  const body = pipeline(stages, () => undefined) as unknown as Readable;
  return {
    body,
    codings,
    failure: () => {
      if (!first || first.stage < 2) return null;
      return new OutboundFetchError(
        'network',
        `cannot decode the ${codings.join(', ')} response from ${url}: ${first.err.message}`,
        url,
      );
    },
  };
}

/** Fails the body once more than `maxBytes` came over the wire, before any decoding. */
function inputCap(maxBytes: number, url: string): Transform {
  let total = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      total += chunk.length;
      if (total > maxBytes)
        done(
          new OutboundFetchError('too-large', `the response from ${url} is larger than ${formatBytes(maxBytes)}`, url),
        );
      else done(null, chunk);
    },
  });
}
