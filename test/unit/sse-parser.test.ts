import { describe, expect, it } from 'vitest';
import { SseParser } from '../../src/client/sse.js';
import { parseEventStream, SseEventTooLarge } from '../../src/contract/event-stream.js';
import { MAX_UPSTREAM_EVENT_CHARS, sseEvents, UpstreamError } from '../../src/server/providers/upstream-http.js';

describe('SseParser', () => {
  it('parses events split across chunks, with CRLF, comments and multi-line data', () => {
    const p = new SseParser();
    const input =
      ': stream open\r\n\r\nid: 1\r\nevent: message\r\ndata: {"content":"Hel"}\r\n\r\n: heartbeat\n\nid: 2\nevent: message\ndata: line one\ndata: line two\n\nevent: done\ndata: {}\n\n';
    const events = [];
    // feed one character at a time: the worst case for a streaming parser
    for (const ch of input) events.push(...p.push(ch));
    expect(events).toEqual([
      { event: 'message', data: '{"content":"Hel"}', id: '1' },
      { event: 'message', data: 'line one\nline two', id: '2' },
      { event: 'done', data: '{}', id: '2' },
    ]);
  });

  it('treats a lone CR as a line end and ignores fields it does not know', () => {
    const p = new SseParser();
    expect(p.push('retry: 10\revent: error\rdata: {"message":"boom"}\r\r')).toEqual([
      { event: 'error', data: '{"message":"boom"}', id: undefined },
    ]);
  });
});

describe('parseEventStream', () => {
  async function* chunks(...parts: string[]) {
    for (const p of parts) yield new TextEncoder().encode(p);
  }
  const all = async <T>(it: AsyncIterable<T>) => {
    const out: T[] = [];
    for await (const x of it) out.push(x);
    return out;
  };

  it('drops a last event that the stream ended before its blank line, as the standard says', async () => {
    expect(await all(parseEventStream(chunks('data: one\n\n', 'data: cut sh')))).toEqual([
      { event: 'message', data: 'one', id: undefined },
    ]);
    expect(await all(parseEventStream(chunks('data: one\n\ndata: two\n')))).toEqual([
      { event: 'message', data: 'one', id: undefined },
    ]);
  });

  it('reads a line that arrives in many small pieces whole', async () => {
    const pieces = Array.from({ length: 20_000 }, () => 'x'.repeat(50));
    const events = await all(parseEventStream(chunks('data: ', ...pieces, '\n\n')));
    expect(events).toHaveLength(1);
    expect(events[0].data.length).toBe(1_000_000);
  });

  it('fails past the event size bound instead of holding a line that never ends', async () => {
    const endless = async function* () {
      yield 'data: ';
      for (let i = 0; i < 100; i++) yield 'y'.repeat(1000);
    };
    await expect(all(parseEventStream(endless(), { maxEventChars: 50_000 }))).rejects.toThrow(SseEventTooLarge);
    // At the bound it is still read.
    const events = await all(parseEventStream(chunks(`data: ${'z'.repeat(49_990)}\n\n`), { maxEventChars: 50_000 }));
    expect(events[0].data.length).toBe(49_990);
  });
});

describe('an upstream model stream', () => {
  it('ends with a 502 naming the bound when one event grows past it', async () => {
    const endless = async function* () {
      yield Buffer.from('data: {"choices":[{"delta":{"content":"');
      for (;;) yield Buffer.from('a'.repeat(64 * 1024));
    };
    const events = sseEvents(endless(), undefined, 1024 * 1024);
    const err = await (async () => {
      try {
        for await (const _ of events) void _;
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as UpstreamError).status).toBe(502);
    expect((err as Error).message).toMatch(/grew past 1,048,576 characters without ending/);
    expect(MAX_UPSTREAM_EVENT_CHARS).toBe(16 * 1024 * 1024);
  });
});
