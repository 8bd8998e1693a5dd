/** One sample of the Prometheus text exposition format. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  samples: Sample[];
  /** `# TYPE` of each metric family. */
  types: Map<string, string>;
  /** The sum of the samples of `name` whose labels include `match`. */
  sum(name: string, match?: Record<string, string>): number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?\s*/gy;

/**
 * A parser of the text format (version 0.0.4), strict enough for a test: every line is a comment,
 * blank, or a sample whose labels parse whole; anything else throws, naming the line.
 */
export function parseExposition(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    if (line.startsWith('#')) {
      const t = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
      if (t) types.set(t[1], t[2]);
      else if (!/^# HELP \S+ /.test(line)) throw new Error(`not a HELP or TYPE comment: ${line}`);
      continue;
    }
    const m = LINE.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    if (m[2]) {
      LABEL.lastIndex = 0;
      let consumed = 0;
      for (let l = LABEL.exec(m[2]); l; l = LABEL.exec(m[2])) {
        labels[l[1]] = l[2].replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
        consumed = LABEL.lastIndex;
      }
      if (consumed !== m[2].length) throw new Error(`labels do not parse: ${line}`);
    }
    const value = m[3] === '+Inf' ? Infinity : m[3] === '-Inf' ? -Infinity : Number(m[3]);
    if (Number.isNaN(value) && m[3] !== 'NaN') throw new Error(`not a value: ${line}`);
    samples.push({ name: m[1], labels, value });
  }
  return {
    samples,
    types,
    sum: (name, match = {}) =>
      samples
        .filter((s) => s.name === name && Object.entries(match).every(([k, v]) => s.labels[k] === v))
        .reduce((a, s) => a + s.value, 0),
  };
}

/**
 * Label values that look like an id, a key or a raw URL: facet's ids (`usr_…`, `job_…`, `req_…`,
 * API keys `fk_…`), long hex or base64-ish runs, UUIDs, paths with a query or a concrete id segment.
 */
export function looksLikeIdOrKey(value: string): boolean {
  if (/^[a-z]{2,6}_[A-Za-z0-9]{10,}$/.test(value)) return true;
  if (/[0-9a-f]{16,}/i.test(value)) return true;
  if (/[A-Za-z0-9_-]{32,}/.test(value)) return true;
  if (/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i.test(value)) return true;
  if (value.includes('?')) return true;
  // A path segment that is not a literal word (`domain_analytics`) or a :param template: an id has digits.
  if (value.startsWith('/') && value.split('/').some((seg) => /\d{3,}|^[A-Za-z]+_(?=\w*\d)[A-Za-z0-9]{8,}$/.test(seg)))
    return true;
  return false;
}
