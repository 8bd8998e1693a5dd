import os from 'node:os';
import { pino } from 'pino';

/** Fields a line carries besides its words (JSON mode); the text mode shows `detail` lines instead. */
export interface LineFields {
  [field: string]: unknown;
}

/** serve's own lines on stderr: where it listens, its start-up report, its stop. */
export interface ServeLines {
  info(text: string, fields?: LineFields): void;
  /** A line of the start-up report: indented under the listening line in text, with its detail lines. */
  report(text: string, fields?: LineFields, detail?: string[]): void;
  warn(text: string, fields?: LineFields): void;
  /** The last line before the process ends on a crash (`err` holds the error, stack included, in JSON). */
  fatal(text: string, fields?: LineFields): void;
}

/**
 * A person at a terminal reads `facet serve: …` lines; in JSON mode (the log's --log-format) each is a
 * JSON line shaped as the log's own (level, time, pid, hostname, instance, msg), so a collector
 * reading stderr and stdout gets nothing but JSON. Shown whatever --log-level says: they are the
 * command's report, not the server's log.
 */
export function serveLines(
  stderr: { write(text: string): unknown },
  format: 'text' | 'json',
  instance: () => string | undefined,
): ServeLines {
  if (format === 'text')
    return {
      info: (text) => stderr.write(`${text}\n`),
      report: (text, _fields, detail = []) =>
        stderr.write(`${[`  ${text}`, ...detail.map((d) => `    ${d}`)].join('\n')}\n`),
      warn: (text) => stderr.write(`${text}\n`),
      fatal: (text, fields = {}) =>
        stderr.write(`${fields.err instanceof Error && fields.err.stack ? fields.err.stack : text}\n`),
    };
  const log = pino(
    { base: { pid: process.pid, hostname: os.hostname() }, mixin: () => ({ instance: instance() }) },
    { write: (line: string) => stderr.write(line) },
  );
  return {
    info: (text, fields = {}) => log.info(fields, text),
    report: (text, fields = {}) => log.info(fields, text),
    warn: (text, fields = {}) => log.warn(fields, text),
    fatal: (text, fields = {}) => log.fatal(fields, text),
  };
}

/** Lines a caller asked not to see (-q) are dropped; the listening line is written apart. */
export const silentLines: ServeLines = {
  info: () => undefined,
  report: () => undefined,
  warn: () => undefined,
  fatal: () => undefined,
};
