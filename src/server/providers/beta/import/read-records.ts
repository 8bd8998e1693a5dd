/**
 * Records of an import file: JSON Lines (.jsonl, .ndjson: one object per line) or CSV (.csv: a
 * header row, RFC 4180 quoting). CSV cells are typed as they read: numbers, true/false, empty ->
 * null, a cell starting with [ or { as JSON, and list fields may be written a|b.
 */

export class ImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportError';
  }
}

function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (quoted) throw new ImportError('CSV: a quoted cell is not closed');
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows.filter((r) => !(r.length === 1 && r[0] === ''));
}

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

export function readRecords(fileName: string, text: string): Array<Record<string, unknown>> {
  if (/\.(jsonl|ndjson)$/i.test(fileName)) {
    return text.split(/\r?\n/).flatMap((line, i) => {
      if (!line.trim()) return [];
      let v: unknown;
      try {
        v = JSON.parse(line);
      } catch (err) {
        throw new ImportError(`line ${i + 1}: not JSON: ${(err as Error).message}`);
      }
      if (!v || typeof v !== 'object' || Array.isArray(v)) throw new ImportError(`line ${i + 1}: each line is one JSON object`);
      return [v as Record<string, unknown>];
    });
  }
  if (/\.csv$/i.test(fileName)) {
    const [header, ...rows] = csvRows(text);
    if (!header) throw new ImportError('CSV: the file is empty');
    return rows.map((cells, i) => {
      if (cells.length !== header.length) throw new ImportError(`CSV row ${i + 2}: ${cells.length} cells for ${header.length} columns`);
      return Object.fromEntries(header.map((h, k) => [h.trim(), csvValue(cells[k])]));
    });
  }
  throw new ImportError(`${fileName}: name it .csv, .jsonl or .ndjson`);
}
