import type { FastifyReply, FastifyRequest } from 'fastify';
import { openEventStream } from '../http/event-stream-head.js';
import type { RequestLogLine } from '../../contract/audit.js';
import { RING_SIZE, type RequestLog, type RingReader } from './request-log.js';

export interface TailFilter {
  status?: string;
  path?: string;
  key?: string;
  method?: string;
  /** A user's own tail: only requests made with their keys. */
  ownerUserId?: string;
}

/**
 * A path pattern as `case` patterns in a shell read it: `*` is any run of characters, `/` included
 * (so /v2/* is everything under /v2), `?` one character; the rest is literal.
 */
export function globToRegExp(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*+/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}

/** `4xx`, `404`, or several of them comma-separated (the contract checked the form). */
function statusMatcher(spec: string): (status: number) => boolean {
  const parts = spec.split(',');
  return (status) =>
    parts.some((p) => (p.endsWith('xx') ? Math.floor(status / 100) === Number(p[0]) : status === Number(p)));
}

export function lineFilter(f: TailFilter): (line: RequestLogLine) => boolean {
  const status = f.status ? statusMatcher(f.status) : undefined;
  const path = f.path ? globToRegExp(f.path) : undefined;
  const method = f.method?.toUpperCase();
  return (line) =>
    (!f.ownerUserId || (line.user_id === f.ownerUserId && line.key_id !== null)) &&
    (!status || status(line.status)) &&
    (!path || path.test(line.path)) &&
    (!f.key || line.key_id === f.key) &&
    (!method || line.method === method);
}

/**
 * Serves a tail as server-sent events: one `request` event per line from the moment it opens. It
 * reads the instance's ring at its own pace (a slow reader never holds more than the ring; one
 * that falls a whole ring behind gets a comment saying how many lines it missed), sends heartbeat
 * comments while idle, and ends when the caller leaves or the server drains.
 */
export function serveTail(
  log: RequestLog,
  filter: TailFilter,
  request: FastifyRequest,
  reply: FastifyReply,
  heartbeatSeconds: number,
): void {
  const res = openEventStream(request, reply);
  res.write(`event: ready\ndata: ${JSON.stringify({ instance: log.instanceId, ring_size: RING_SIZE })}\n\n`);
  const matches = lineFilter(filter);
  let ended = false;
  let waitingForDrain = false;
  const reader: RingReader = {
    next: log.seq,
    wake: () => {
      if (!waitingForDrain) pump();
    },
  };
  function pump(): void {
    while (!ended) {
      const { line, skipped } = log.read(reader);
      let ok = true;
      if (skipped > 0) ok = res.write(`: skipped ${skipped} lines (this reader fell behind)\n\n`);
      if (!line) return;
      if (matches(line)) ok = res.write(`event: request\ndata: ${JSON.stringify(line)}\n\n`) && ok;
      if (!ok) {
        waitingForDrain = true;
        res.once('drain', () => {
          waitingForDrain = false;
          pump();
        });
        return;
      }
    }
  }
  const detach = log.attach(reader);
  const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), Math.max(1, heartbeatSeconds) * 1000);
  heartbeat.unref();
  const finish = () => {
    if (ended) return;
    ended = true;
    log.closers.delete(finish);
    clearInterval(heartbeat);
    detach();
    res.end();
  };
  log.closers.add(finish);
  request.raw.on('close', finish);
  res.on('close', finish);
}
