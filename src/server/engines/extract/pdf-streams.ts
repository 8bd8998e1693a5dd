import { constants, inflateSync } from 'node:zlib';
import { DOCUMENT_LIMITS, overLimit } from './limits.js';

/**
 * Inflates, within bounds and without keeping the output, every Flate stream of a PDF that text
 * extraction may read (content streams, object streams, fonts, forms; images are skipped, pdf.js
 * never decodes them for text). pdf.js inflates a stream whole and has no option to cap it, so a
 * small file that inflates to gigabytes is refused here first: one stream past pdfMaxStreamBytes
 * or all of them past pdfMaxInflatedBytes. Streams are found by their keywords in one linear scan;
 * a damaged stream is left for pdf.js to judge.
 */
export function checkPdfStreams(data: Uint8Array): void {
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const s = bytes.toString('latin1');
  let total = 0;
  let at = 0;
  for (;;) {
    const keyword = s.indexOf('stream', at);
    if (keyword < 0) return;
    at = keyword + 6;
    if (s.startsWith('end', keyword - 3)) continue;
    // The keyword is followed by CRLF or LF, then the data.
    let start = keyword + 6;
    if (s[start] === '\r') start++;
    if (s[start] !== '\n' && s[start - 1] !== '\r') continue;
    if (s[start] === '\n') start++;
    const end = s.indexOf('endstream', start);
    if (end < 0) return;
    at = end + 9;
    // The stream's dictionary sits between its "N G obj" and the keyword.
    const window = s.slice(Math.max(0, keyword - 65_536), keyword);
    const dict = window.slice(Math.max(0, window.lastIndexOf('obj')));
    if (!/\/(FlateDecode|Fl)\b/.test(dict) || /\/Subtype\s*\/Image\b/.test(dict)) continue;
    const cap = Math.min(DOCUMENT_LIMITS.pdfMaxStreamBytes, DOCUMENT_LIMITS.pdfMaxInflatedBytes - total);
    let inflated: number;
    try {
      inflated = inflateSync(bytes.subarray(start, end), {
        maxOutputLength: cap + 1,
        finishFlush: constants.Z_SYNC_FLUSH,
      }).length;
    } catch (err) {
      if ((err as { code?: string }).code !== 'ERR_BUFFER_TOO_LARGE') continue;
      inflated = cap + 1;
    }
    if (inflated > cap) {
      if (cap < DOCUMENT_LIMITS.pdfMaxStreamBytes)
        throw overLimit(
          'pdfMaxInflatedBytes',
          `the PDF's streams inflate to more than ${DOCUMENT_LIMITS.pdfMaxInflatedBytes / 1024 / 1024} MB`,
        );
      throw overLimit(
        'pdfMaxStreamBytes',
        `a stream of the PDF inflates to more than ${DOCUMENT_LIMITS.pdfMaxStreamBytes / 1024 / 1024} MB`,
      );
    }
    total += inflated;
  }
}
