/**
 * The bounds on every document the platform reads (uploads, fetched pages, slide templates), so
 * that no single file can hold a CPU worker for long or exhaust memory. Each refusal names its limit.
 */
const DEFAULT_DOCUMENT_LIMITS = {
  /** Element nesting of HTML; parse and Readability time grows faster than linearly past it. */
  htmlMaxDepth: 256,
  /** Elements in one HTML document (Readability and Markdown conversion cost grows with them). */
  htmlMaxElements: 30_000,
  /** Characters of HTML text and markup outside scripts and styles. */
  htmlMaxChars: 5_000_000,
  /** Characters of text a document may turn into (what is chunked and indexed). */
  textMaxChars: 5_000_000,
  /** Lists and block quotes one Markdown line sits in (markdown-shape.ts): parse time grows with its square. */
  markdownMaxDepth: 16,
  /** Emphasis and bracket marks (`* _ ~ [ ]`) in one Markdown paragraph: micromark pairs them up in quadratic time. */
  markdownMaxInlineMarks: 2_000,
  /** Entries in a ZIP-based file (DOCX, PPTX, templates), from its central directory. */
  zipMaxEntries: 10_000,
  /** Sum of the entries' uncompressed sizes. */
  zipMaxUncompressedBytes: 100 * 1024 * 1024,
  /** Uncompressed to compressed size of one entry, for entries over 1 MB (a zip bomb's mark). */
  zipMaxRatio: 100,
  /** Paragraphs in a DOCX body. */
  docxMaxParagraphs: 25_000,
  /** Slides in a PPTX deck. */
  pptxMaxSlides: 2_000,
  /** Pages of a PDF, read from its page tree before any page is. */
  pdfMaxPages: 1_000,
  /** Inflated bytes of one Flate stream of a PDF that text extraction reads (images are never read). */
  pdfMaxStreamBytes: 32 * 1024 * 1024,
  /** Inflated bytes of all such streams of one PDF. */
  pdfMaxInflatedBytes: 128 * 1024 * 1024,
};

export type DocumentLimitName = keyof typeof DEFAULT_DOCUMENT_LIMITS;

/**
 * The limits in force: the defaults, each replaceable with FACET_DOCUMENT_LIMITS (for example
 * `pdfMaxPages=5000,docxMaxParagraphs=100000`), for a server whose users read larger documents.
 * Read from the environment, so worker threads and render children see the same values.
 */
export function documentLimitsFrom(value: string | undefined): Record<DocumentLimitName, number> {
  const limits = { ...DEFAULT_DOCUMENT_LIMITS };
  for (const pair of (value ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name, raw] = pair.split('=').map((p) => p.trim());
    const n = Number(raw);
    if (!(name in limits))
      throw new Error(`FACET_DOCUMENT_LIMITS: ${name} is not a document limit (${Object.keys(limits).join(', ')})`);
    if (!Number.isSafeInteger(n) || n < 1)
      throw new Error(`FACET_DOCUMENT_LIMITS: ${name} takes a whole number of at least 1, not ${raw}`);
    limits[name as DocumentLimitName] = n;
  }
  return limits;
}

export const DOCUMENT_LIMITS: Readonly<Record<DocumentLimitName, number>> = documentLimitsFrom(
  process.env.FACET_DOCUMENT_LIMITS,
);

/** Entries below this size may compress as well as they like: small XML parts often do. */
export const ZIP_RATIO_MIN_BYTES = 1024 * 1024;

export type RefusalCode = 'PAYLOAD_TOO_LARGE' | 'INVALID_PARAMETER';

/**
 * A document this platform will not read: over one of DOCUMENT_LIMITS (413) or not the format it
 * claims (400). It crosses the CPU worker's boundary as a value (see `guarded`), not as a thrown
 * error, so its code and status survive whatever the pool does with errors.
 */
export class DocumentRefused extends Error {
  readonly status: 413 | 400;
  constructor(
    readonly code: RefusalCode,
    message: string,
    /** The limit's name (a key of DOCUMENT_LIMITS) when a limit was hit. */
    readonly limit?: string,
  ) {
    super(message);
    this.name = 'DocumentRefused';
    this.status = code === 'PAYLOAD_TOO_LARGE' ? 413 : 400;
  }
}

export const overLimit = (limit: keyof typeof DOCUMENT_LIMITS, message: string) =>
  new DocumentRefused(
    'PAYLOAD_TOO_LARGE',
    `${message} (limit ${limit} = ${DOCUMENT_LIMITS[limit].toLocaleString('en-US')})`,
    limit,
  );

export type Guarded<T> =
  { ok: true; value: T } | { ok: false; refused: { code: RefusalCode; message: string; limit?: string } };

/** Runs a document job, turning a refusal into a value that survives structured cloning. */
export async function guarded<T>(work: () => Promise<T> | T): Promise<Guarded<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (err) {
    if (err instanceof DocumentRefused)
      return { ok: false, refused: { code: err.code, message: err.message, limit: err.limit } };
    throw err;
  }
}

/** The value of a guarded job, or its refusal thrown again on the caller's side. */
export function unguard<T>(g: Guarded<T>): T {
  if (g.ok) return g.value;
  throw new DocumentRefused(g.refused.code, g.refused.message, g.refused.limit);
}

/** Refuses a text over textMaxChars (checked before it is chunked and indexed). */
export function checkTextLength(text: string, what = 'the document text'): void {
  if (text.length > DOCUMENT_LIMITS.textMaxChars)
    throw overLimit('textMaxChars', `${what} has ${text.length.toLocaleString('en-US')} characters, over the limit`);
}
