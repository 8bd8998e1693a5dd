/**
 * The limits every multipart scope registers (multipart-scope.ts), here so that the buffered reader
 * below knows what the streaming parser would refuse and leaves those bodies to it.
 */
export const FORM_LIMITS = { files: 20, fields: 50, fieldSize: 64 * 1024, parts: 80 } as const;

/** A body at most this long, and already in memory, is read by splitTextForm. */
export const BUFFERED_FORM_MAX_BYTES = 16 * 1024;

const CRLF = Buffer.from('\r\n');
const HEADERS_END = Buffer.from('\r\n\r\n');

/**
 * The boundary of a `multipart/form-data` content type, when it is a plain one: a token or a quoted
 * string without escapes, 1 to 70 characters (RFC 2046). Anything else: null.
 */
export function plainBoundary(contentType: string | undefined): string | null {
  const m = /^multipart\/form-data\s*;\s*boundary=(?:"([^"\\]{1,70})"|([0-9A-Za-z'()+_,\-./:=?]{1,70}))\s*$/i.exec(contentType ?? '');
  return m ? (m[1] ?? m[2]) : null;
}

/**
 * A whole multipart/form-data body of text fields only, split into [name, value] pairs in their
 * order; or null when the body is anything else (a file part, a part with its own content type or
 * charset, header folding, non-ASCII headers, RFC 5987 parameters, a count or size past
 * FORM_LIMITS, or a body that is not well-formed). The streaming parser (busboy) reads every body
 * this returns null for, so what it accepts, refuses and how it words the refusal stay the same:
 * this only spares the common small form of text fields its stream machinery, which costs a request
 * about half a millisecond.
 */
export function splitTextForm(body: Buffer, boundary: string): Array<[string, string]> | null {
  const delimiter = Buffer.from(`--${boundary}`);
  const next = Buffer.from(`\r\n--${boundary}`);
  // No preamble: the body starts with the first delimiter.
  if (!body.subarray(0, delimiter.length).equals(delimiter)) return null;
  let at = delimiter.length;
  const fields: Array<[string, string]> = [];
  for (;;) {
    // After a delimiter: "--" ends the body, CRLF starts a part.
    if (body[at] === 0x2d && body[at + 1] === 0x2d) return fields.length > 0 ? fields : null;
    if (!body.subarray(at, at + 2).equals(CRLF)) return null;
    at += 2;
    const headersEnd = body.indexOf(HEADERS_END, at);
    if (headersEnd < 0) return null;
    const name = fieldName(body.subarray(at, headersEnd));
    if (name === null) return null;
    const valueStart = headersEnd + HEADERS_END.length;
    const valueEnd = body.indexOf(next, valueStart);
    if (valueEnd < 0) return null;
    if (valueEnd - valueStart > FORM_LIMITS.fieldSize) return null;
    if (fields.length + 1 > FORM_LIMITS.fields) return null;
    fields.push([name, body.toString('utf8', valueStart, valueEnd)]);
    at = valueEnd + next.length;
  }
}

/**
 * The name of a text field from its part's headers: exactly one `Content-Disposition: form-data`
 * with a `name` and no other parameter, and nothing else but header lines this reader ignores as
 * busboy does. Null for anything else.
 */
function fieldName(headers: Buffer): string | null {
  for (let i = 0; i < headers.length; i++) if (headers[i] > 0x7e || (headers[i] < 0x20 && headers[i] !== 0x0d && headers[i] !== 0x0a && headers[i] !== 0x09)) return null;
  let name: string | null = null;
  for (const line of headers.toString('latin1').split('\r\n')) {
    if (line === '' || line.startsWith(' ') || line.startsWith('\t')) return null; // folded or empty
    const colon = line.indexOf(':');
    if (colon <= 0) return null;
    const header = line.slice(0, colon).trim().toLowerCase();
    if (header === 'content-type' || header === 'content-transfer-encoding') return null; // its own type: not a plain text field
    if (header !== 'content-disposition') continue;
    if (name !== null) return null;
    const m = /^\s*form-data\s*;\s*name=(?:"([^"\\]*)"|([!#$%&'*+\-.^_`|~0-9A-Za-z]+))\s*$/i.exec(line.slice(colon + 1));
    if (!m) return null;
    name = m[1] ?? m[2];
  }
  return name;
}
