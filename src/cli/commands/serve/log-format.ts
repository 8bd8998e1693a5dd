import { Writable } from 'node:stream';
import type { ChalkInstance } from 'chalk';

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** pino's own fields, the instance (one per terminal), and those a readable line already shows another way. */
const SHOWN = new Set([
  'level',
  'time',
  'pid',
  'hostname',
  'instance',
  'msg',
  'req',
  'res',
  'reqId',
  'responseTime',
  'err',
]);

/** A pino line: the fields read here; any others are shown as key=value. */
interface LogLine {
  level: number;
  time?: number;
  msg?: string;
  reqId?: string;
  req?: { method: string; url: string };
  res?: { statusCode: number };
  responseTime?: number;
  err?: { message?: string };
  [field: string]: unknown;
}

function value(v: unknown): string {
  if (typeof v === 'string') return /\s/.test(v) ? JSON.stringify(v) : v;
  return JSON.stringify(v);
}

/**
 * Turns the server's JSON log lines into one readable line each, for a person at a terminal:
 * `16:58:49 INFO  POST /v2/projects → 201 13 ms req_…`. A request's "incoming" and "completed"
 * lines become one line, written when it completes. Lines that are not JSON pass through.
 * `write` is the CLI's output (IO.write): the server's text is escaped for the terminal and the
 * colours of `c` (a marked chalk) are turned into real escapes only there.
 */
export function readableLog(write: (text: string) => void, c: ChalkInstance): Writable {
  const incoming = new Map<string, { method: string; url: string }>();
  let partial = '';
  const levelColor = (level: number, text: string) =>
    level >= 50 ? c.red(text) : level >= 40 ? c.yellow(text) : level <= 20 ? c.dim(text) : c.green(text);
  const format = (line: string): string | undefined => {
    let e: LogLine;
    try {
      e = JSON.parse(line) as LogLine;
    } catch {
      return line;
    }
    if (e.msg === 'incoming request' && e.reqId && e.req) {
      incoming.set(e.reqId, { method: e.req.method, url: e.req.url });
      return undefined;
    }
    const time = new Date(e.time ?? Date.now()).toTimeString().slice(0, 8);
    const level = levelColor(e.level, (LEVELS[e.level] ?? String(e.level)).padEnd(5));
    let text: string;
    if (e.msg === 'request completed' && e.reqId) {
      const req = incoming.get(e.reqId);
      incoming.delete(e.reqId);
      const status = e.res?.statusCode;
      const shownStatus =
        status === undefined
          ? String(status)
          : status >= 500
            ? c.red(String(status))
            : status >= 400
              ? c.yellow(String(status))
              : String(status);
      text = `${req ? `${req.method} ${req.url}` : 'request'} → ${shownStatus} ${Math.round(e.responseTime ?? 0)} ms ${c.dim(e.reqId)}`;
    } else {
      text = String(e.msg ?? '');
      if (e.reqId) text += ` ${c.dim(e.reqId)}`;
      if (e.err) text += `: ${e.err.message ?? value(e.err)}`;
    }
    const extra = Object.entries(e)
      .filter(([k]) => !SHOWN.has(k))
      .map(([k, v]) => `${c.dim(k + '=')}${value(v)}`)
      .join(' ');
    return `${c.dim(time)} ${level} ${text}${extra ? ' ' + extra : ''}`;
  };
  return new Writable({
    write(chunk: Buffer, _enc, done) {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      const shown = lines
        .filter(Boolean)
        .map(format)
        .filter((l): l is string => l !== undefined);
      if (shown.length) write(shown.join('\n') + '\n');
      done();
    },
    final(done) {
      const last = partial && format(partial);
      if (last) write(last + '\n');
      done();
    },
  });
}
