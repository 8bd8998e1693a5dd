import type { Readable } from 'node:stream';
import { OutboundFetchError } from './errors.js';

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${+(n / 1024 / 1024).toFixed(1)} MB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}

/**
 * Reads a body as it streams in and stops at the cap: the moment the running total passes
 * `maxBytes` the stream is destroyed (closing the connection) and the fetch fails, so no more than
 * the cap plus one chunk is ever held in memory, whatever the sender declares or sends.
 */
export async function readCapped(
  body: Readable,
  maxBytes: number,
  url: string,
  options: { decompressed?: boolean } = {},
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      body.on('error', () => undefined);
      body.destroy();
      const once = options.decompressed ? ' once decompressed' : '';
      throw new OutboundFetchError(
        'too-large',
        `the response from ${url} is larger than ${formatBytes(maxBytes)}${once}`,
        url,
      );
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

/**
 * The first `maxBytes` of a body, for answers only shown in part (an upstream's error message): the
 * rest is not read, the stream is destroyed, and no failure is raised for the length.
 */
export async function readPrefix(body: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    total += chunk.length;
    if (total >= maxBytes) break;
  }
  // Leaving the loop early destroys the stream; an error it reports then is of no interest.
  body.on('error', () => undefined);
  body.destroy();
  return Buffer.concat(chunks, total).subarray(0, maxBytes);
}
