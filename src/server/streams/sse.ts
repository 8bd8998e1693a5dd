import type { FastifyReply, FastifyRequest } from 'fastify';
import { openEventStream } from '../http/event-stream-head.js';
import type { LoggedEvent, StreamHub } from './hub.js';
import { untilStoreAnswers } from '../store/unavailable.js';

/** One SSE frame. `id` is the offset to resume from after this event, so Last-Event-ID works too. */
export function frame(e: LoggedEvent): string {
  return `id: ${e.seq + 1}\nevent: ${e.type}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

const isTerminal = (e: LoggedEvent) => e.type === 'done' || e.type === 'error';

/**
 * Serves one stream from `offset`: subscribes first (buffering), replays the log, then forwards
 * live events, so no event falls between replay and tail, and each is sent exactly once. Ends the
 * response after done or error; heartbeat comments keep idle proxies from closing the connection.
 * A reader whose offset is at or past the terminal event (an EventSource reconnecting after `done`,
 * or a bad resume position) gets that terminal event again and the end of the response at once:
 * a stream that has ended can never hold a connection open.
 */
export async function serveStream(
  hub: StreamHub,
  key: string,
  offset: number,
  request: FastifyRequest,
  reply: FastifyReply,
  heartbeatSeconds: number,
): Promise<void> {
  const res = openEventStream(request, reply);
  res.write(': stream open\n\n');

  let next = offset;
  let ended = false;
  let live = false;
  const buffered: LoggedEvent[] = [];
  const send = (e: LoggedEvent) => {
    if (ended || (e.seq < next && !isTerminal(e))) return;
    next = Math.max(next, e.seq + 1);
    res.write(frame(e));
    if (isTerminal(e)) finish();
  };
  const unsubscribe = hub.subscribe(key, (e) => (live ? send(e) : buffered.push(e)));
  const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), Math.max(1, heartbeatSeconds) * 1000);
  heartbeat.unref();
  // A shutdown ends the response asking the client to come back in a second (an EventSource
  // reconnects, through the balancer, and resumes from its Last-Event-ID).
  const endForShutdown = () => {
    if (!ended) res.write('retry: 1000\n\n');
    finish();
  };
  hub.readers.add(endForShutdown);
  function finish() {
    if (ended) return;
    ended = true;
    hub.readers.delete(endForShutdown);
    clearInterval(heartbeat);
    unsubscribe();
    res.end();
  }
  request.raw.on('close', finish);
  res.on('close', finish);

  // A reader that meets an outage waits for the database (heartbeats go on), as the writer does.
  const riding = { stop: () => ended };
  try {
    for (const e of await untilStoreAnswers(() => hub.replay(key, offset), riding)) send(e);
    // What was written while the log was being read came live meanwhile: it follows the replay.
    live = true;
    for (const e of buffered.sort((a, b) => a.seq - b.seq)) send(e);
    buffered.length = 0;
    if (!ended) {
      // A stream that ended before this offset (a reconnect after done) gets its end now. One that
      // ended after the replay read the log is read again from where this reader is, so its last
      // events come before its end, never skipped by it.
      const end = await untilStoreAnswers(() => hub.terminalEvent(key), riding);
      if (end && end.seq < next) send(end);
      else if (end) for (const e of await untilStoreAnswers(() => hub.replay(key, next), riding)) send(e);
    }
  } catch (err) {
    res.write(
      `event: error\ndata: ${JSON.stringify({ message: `cannot read the stream: ${(err as Error).message}` })}\n\n`,
    );
    finish();
  }
}
