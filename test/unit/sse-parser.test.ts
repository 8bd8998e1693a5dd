import { describe, expect, it } from 'vitest';
import { SseParser } from '../../src/client/sse.js';

describe('SseParser', () => {
  it('parses events split across chunks, with CRLF, comments and multi-line data', () => {
    const p = new SseParser();
    const input = ': stream open\r\n\r\nid: 1\r\nevent: message\r\ndata: {"content":"Hel"}\r\n\r\n: heartbeat\n\nid: 2\nevent: message\ndata: line one\ndata: line two\n\nevent: done\ndata: {}\n\n';
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
    expect(p.push('retry: 10\revent: error\rdata: {"message":"boom"}\r\r')).toEqual([{ event: 'error', data: '{"message":"boom"}', id: undefined }]);
  });
});
