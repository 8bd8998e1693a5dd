/**
 * The text/event-stream wire format (HTML standard), shared by every side that speaks it: the CLI
 * reading conversation and model streams, and the server reading upstream model streams.
 */

/** One parsed server-sent event (the text/event-stream format of the HTML standard). */
export interface RawSseEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * Incremental text/event-stream parser: feed it chunks as they arrive, it returns the complete
 * events. Handles CRLF, CR and LF line ends, multi-line data, comments (heartbeats) and fields
 * without a value.
 */
export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];
  private id: string | undefined;
  /** The previous chunk ended in CR: a LF starting this one is the rest of that CRLF. */
  private skipLf = false;

  push(chunk: string): RawSseEvent[] {
    if (this.skipLf && chunk.startsWith('\n')) chunk = chunk.slice(1);
    this.skipLf = false;
    this.buffer += chunk;
    const out: RawSseEvent[] = [];
    for (;;) {
      const m = /\r\n|\r|\n/.exec(this.buffer);
      if (!m) break;
      if (m[0] === '\r' && m.index === this.buffer.length - 1) this.skipLf = true;
      const line = this.buffer.slice(0, m.index);
      this.buffer = this.buffer.slice(m.index + m[0].length);
      if (line === '') {
        if (this.data.length > 0 || this.event) out.push({ event: this.event || 'message', data: this.data.join('\n'), id: this.id });
        this.event = '';
        this.data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') this.event = value;
      else if (field === 'data') this.data.push(value);
      else if (field === 'id' && !value.includes('\0')) this.id = value;
    }
    return out;
  }
}


/** The events of a whole byte stream, parsed as they arrive. */
export async function* parseEventStream(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<RawSseEvent> {
  const parser = new SseParser();
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    yield* parser.push(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
  }
  yield* parser.push(decoder.decode() + '\n\n');
}
