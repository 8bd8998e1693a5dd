import yauzl from 'yauzl';
import { DOCUMENT_LIMITS, DocumentRefused, overLimit, ZIP_RATIO_MIN_BYTES } from './limits.js';

const fromBuffer = (data: Buffer) =>
  new Promise<yauzl.ZipFile>((resolve, reject) =>
    // validateEntrySizes: an entry's stream fails as soon as it inflates past its declared size.
    yauzl.fromBuffer(data, { lazyEntries: true, validateEntrySizes: true, decodeStrings: true }, (err, zip) =>
      err || !zip ? reject(err ?? new Error('unreadable')) : resolve(zip),
    ),
  );

function centralDirectory(zip: yauzl.ZipFile): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    let total = 0;
    zip.on('entry', (e: yauzl.Entry) => {
      total += e.uncompressedSize;
      if (total > DOCUMENT_LIMITS.zipMaxUncompressedBytes) {
        return reject(
          overLimit(
            'zipMaxUncompressedBytes',
            `the archive's entries uncompress to more than ${DOCUMENT_LIMITS.zipMaxUncompressedBytes / 1024 / 1024} MB`,
          ),
        );
      }
      if (
        e.uncompressedSize > ZIP_RATIO_MIN_BYTES &&
        e.uncompressedSize > DOCUMENT_LIMITS.zipMaxRatio * Math.max(1, e.compressedSize)
      ) {
        return reject(
          overLimit(
            'zipMaxRatio',
            `the archive's entry ${e.fileName} compresses ${Math.round(e.uncompressedSize / Math.max(1, e.compressedSize))} to 1, over the ratio limit`,
          ),
        );
      }
      entries.push(e);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', reject);
    zip.readEntry();
  });
}

function inflate(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err || !stream) return reject(err ?? new Error('unreadable entry'));
      const parts: Buffer[] = [];
      stream.on('data', (b: Buffer) => parts.push(b));
      stream.on('end', () => resolve(Buffer.concat(parts)));
      stream.on('error', (e: Error) => {
        stream.destroy();
        reject(e);
      });
    });
  });
}

/**
 * The entries of a ZIP-based file (DOCX, PPTX, PowerPoint templates), checked before anything is
 * inflated: the entry count (from the end record), each entry's sizes from the central directory
 * (total uncompressed size, compression ratio) against DOCUMENT_LIMITS. Then only the entries
 * `want` picks are inflated, each held to its declared size, so a header that lies about a size
 * cannot inflate past the limits either. Not a ZIP → DocumentRefused 400, naming `what`.
 */
export async function readZip(
  data: Uint8Array,
  what: string,
  want: (name: string) => boolean = () => true,
): Promise<Map<string, Buffer>> {
  const buf = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  let zip: yauzl.ZipFile;
  try {
    zip = await fromBuffer(buf);
  } catch (err) {
    throw new DocumentRefused(
      'INVALID_PARAMETER',
      `${what} is a ZIP archive; this file is not one (${(err as Error).message})`,
    );
  }
  try {
    if (zip.entryCount > DOCUMENT_LIMITS.zipMaxEntries)
      throw overLimit('zipMaxEntries', `the archive has ${zip.entryCount.toLocaleString('en-US')} entries`);
    const entries = await centralDirectory(zip).catch((err) => {
      if (err instanceof DocumentRefused) throw err;
      throw new DocumentRefused('INVALID_PARAMETER', `the ZIP archive is damaged: ${(err as Error).message}`);
    });
    const out = new Map<string, Buffer>();
    for (const e of entries) {
      if (e.fileName.endsWith('/') || !want(e.fileName)) continue;
      try {
        out.set(e.fileName, await inflate(zip, e));
      } catch (err) {
        throw new DocumentRefused(
          'INVALID_PARAMETER',
          `the ZIP archive's entry ${e.fileName} cannot be read: ${(err as Error).message}`,
        );
      }
    }
    return out;
  } finally {
    zip.close();
  }
}
