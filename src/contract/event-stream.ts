import { createParser, type EventSourceParser } from 'eventsource-parser';

/**
 * The text/event-stream wire format (HTML standard), shared by every side that speaks it: the CLI
 * reading conversation and model streams, and the server reading upstream model streams. The
 * parsing is eventsource-parser's; this adds the last event ID's persistence and a size bound.
 */

/** One parsed server-sent event (the text/event-stream format of the HTML standard). */
export interface RawSseEvent {
  event: string;
  data: string;
  /** The last event ID: the latest `id` field so far, which (as the standard says) carries over to later events. */
  id?: string;
}

/** A stream whose pending line and event data grew past the parser's bound without an event ending. */
export class SseEventTooLarge extends Error {
  constructor(readonly maxChars: number) {
    super(`an event grew past ${maxChars.toLocaleString('en-US')} characters without ending`);
  }
}

/** Incremental parser: feed it chunks as they arrive, it returns the events they complete. */
export class SseParser {
  private readonly parser: EventSourceParser;
  private completed: RawSseEvent[] = [];
  private lastId: string | undefined;
  private failure: SseEventTooLarge | undefined;
  /** The previous chunk ended in CR, given to the parser as CRLF: a LF starting this one was that CRLF's. */
  private skipLf = false;

  /** `maxEventChars` bounds what is held for one event (its unfinished line and its data so far). */
  constructor(options: { maxEventChars?: number } = {}) {
    const max = options.maxEventChars;
    this.parser = createParser({
      maxBufferSize: max,
      onEvent: (e) => {
        if (e.id !== undefined) this.lastId = e.id;
        this.completed.push({ event: e.event ?? 'message', data: e.data, id: this.lastId });
      },
      // Unknown fields and a bad retry are ignored, as the standard says; only the bound fails.
      onError: (err) => {
        if (err.type === 'max-buffer-size-exceeded') this.failure = new SseEventTooLarge(max!);
      },
    });
  }

  push(chunk: string): RawSseEvent[] {
    if (this.failure) throw this.failure;
    if (this.skipLf && chunk.startsWith('\n')) chunk = chunk.slice(1);
    // The parser holds a final CR until it knows whether LF follows; the line has ended either way.
    this.skipLf = chunk.endsWith('\r');
    this.parser.feed(this.skipLf ? `${chunk}\n` : chunk);
    // feed() may have set it (TypeScript narrowed it away above).
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    if (this.failure) throw this.failure;
    const out = this.completed;
    this.completed = [];
    return out;
  }
}

/**
 * The events of a whole byte stream, parsed as they arrive. An event not ended by a blank line
 * when the stream ends is dropped, as the standard says: it may be cut short.
 */
export async function* parseEventStream(
  body: AsyncIterable<Uint8Array | string>,
  options: { maxEventChars?: number } = {},
): AsyncGenerator<RawSseEvent> {
  const parser = new SseParser(options);
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    yield* parser.push(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
  }
}
