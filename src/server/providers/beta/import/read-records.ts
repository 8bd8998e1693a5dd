import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { parse, type CsvError } from 'csv-parse';

/**
 * Records of an import file, streamed: JSON Lines (.jsonl, .ndjson: one object per line) or CSV
 * (.csv: a header row, RFC 4180 quoting, a BOM allowed, parsed by csv-parse). A record is read,
 * handed on and let go, so a large file never sits in memory whole. CSV cells are typed as they
 * read: numbers, true/false, empty -> null, a cell starting with [ or { as JSON, and list fields
 * may be written a|b.
 */

export class ImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportError';
  }
}

/** One record and where it is: its number among the records and the file line it ends on. */
export interface SourceRecord {
  record: Record<string, unknown>;
  index: number;
  line: number;
}

/** A CSV record may be at most this long (a quote never closed would otherwise take the rest of the file). */
export const MAX_CSV_RECORD_BYTES = 1 << 20;

function csvValue(raw: string): unknown {
  const s = raw.trim();
  if (s === '') return null;
  if (s === 'true') return true;
  if (s === 'false') return false;
  if (/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(s)) return Number(s);
  if (s.startsWith('[') || s.startsWith('{')) {
    try {
      return JSON.parse(s);
    } catch {
      return s;
    }
  }
  return raw;
}

async function* csvRecords(input: Readable): AsyncGenerator<SourceRecord> {
  const parser = input.pipe(
    parse({
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
      max_record_size: MAX_CSV_RECORD_BYTES,
    }),
  );
  // A read error of the file ends the parse with that error rather than leaving it waiting.
  input.once('error', (err) => parser.destroy(err));
  let header: string[] | null = null;
  let index = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (!header) {
        header = record.map((h) => h.trim());
        continue;
      }
      index++;
      if (record.length !== header.length)
        throw new ImportError(`CSV line ${info.lines}: ${record.length} cells for ${header.length} columns`);
      yield { record: Object.fromEntries(header.map((h, k) => [h, csvValue(record[k])])), index, line: info.lines };
    }
  } catch (err) {
    if ((err as CsvError).code?.startsWith('CSV_')) throw new ImportError(`CSV: ${(err as Error).message}`);
    throw err;
  } finally {
    input.destroy();
  }
  if (!header) throw new ImportError('CSV: the file is empty');
}

async function* jsonLines(input: Readable): AsyncGenerator<SourceRecord> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  let line = 0;
  let index = 0;
  try {
    for await (const text of lines) {
      line++;
      if (!text.trim()) continue;
      let v: unknown;
      try {
        v = JSON.parse(text);
      } catch (err) {
        throw new ImportError(`line ${line}: not JSON: ${(err as Error).message}`);
      }
      if (!v || typeof v !== 'object' || Array.isArray(v))
        throw new ImportError(`line ${line}: each line is one JSON object`);
      yield { record: v as Record<string, unknown>, index: ++index, line };
    }
  } finally {
    lines.close();
    input.destroy();
  }
}

/** Checks the file's name before anything is read: it says the format. */
export function checkImportName(fileName: string): void {
  if (!/\.(jsonl|ndjson|csv)$/i.test(fileName)) throw new ImportError(`${fileName}: name it .csv, .jsonl or .ndjson`);
}

/** The records of `input`, in file order, by the format its name says. */
export function readRecords(fileName: string, input: Readable): AsyncGenerator<SourceRecord> {
  checkImportName(fileName);
  return /\.csv$/i.test(fileName) ? csvRecords(input) : jsonLines(input);
}
