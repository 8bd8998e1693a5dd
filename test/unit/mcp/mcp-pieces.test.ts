import { describe, expect, it } from 'vitest';
import { splitAnswer } from '../../../src/mcp/tools/ask.js';
import { toolError, PlatformOutcomeError } from '../../../src/mcp/errors.js';
import { ApiError, NetworkError } from '../../../src/client/errors.js';
import { McpSessions, type McpSession } from '../../../src/server/mcp/sessions.js';

describe('livedocs_ask: the answer and its citations', () => {
  it('splits the platform footer into numbered citations, a title holding " — " kept whole', () => {
    const text =
      'Water boils at 100 °C [1], tea at 80 °C [2].\n\nSources:\n[1] Kettles — a guide — https://example.com/kettle\n[2] Tea notes';
    expect(splitAnswer(text)).toEqual({
      answer: 'Water boils at 100 °C [1], tea at 80 °C [2].',
      citations: [
        { n: 1, title: 'Kettles — a guide', link: 'https://example.com/kettle' },
        { n: 2, title: 'Tea notes', link: '' },
      ],
    });
  });
  it('an answer without sources has no citations, and "Sources:" inside the text is not a footer', () => {
    expect(splitAnswer('No source says so.')).toEqual({ answer: 'No source says so.', citations: [] });
    expect(splitAnswer('See Sources: below').citations).toEqual([]);
  });
});

describe('tool errors', () => {
  it('an ApiError names its code, status, retry time and request id', () => {
    const r = toolError(new ApiError(429, 'RATE_LIMIT_EXCEEDED', 'slow down', 'req_1', {}, 6.2));
    expect(r.isError).toBe(true);
    expect((r.content[0] as { text: string }).text).toBe(
      'RATE_LIMIT_EXCEEDED (HTTP 429): slow down\nretry_after_seconds: 7\nrequest_id: req_1',
    );
    expect(r._meta?.['facet/error']).toEqual({
      status: 429,
      code: 'RATE_LIMIT_EXCEEDED',
      message: 'slow down',
      retry_after_seconds: 7,
      request_id: 'req_1',
    });
  });
  it('outcomes and network failures are results too', () => {
    expect((toolError(new PlatformOutcomeError('TASK_FAILED', 'no text')).content[0] as { text: string }).text).toBe(
      'TASK_FAILED: no text',
    );
    expect((toolError(new NetworkError('cannot reach x', 'u')).content[0] as { text: string }).text).toBe(
      'FAILED: cannot reach x',
    );
  });
});

describe('MCP sessions', () => {
  let clock = 0;
  const closed: string[] = [];
  const session = (id: string, keyId: string): McpSession =>
    ({
      id,
      keyId,
      lastSeen: clock,
      active: 0,
      transport: {},
      server: { close: async () => void closed.push(id) },
    }) as unknown as McpSession;

  it('are found only by their key; the least recently used idle one makes room; busy ones are never ended', async () => {
    const s = new McpSessions(2, 1000, () => clock);
    s.add(session('a1', 'A'));
    clock = 5;
    s.add(session('a2', 'A'));
    expect(s.find('a1', 'B')).toBeUndefined();
    expect(s.find('a1', 'A')?.id).toBe('a1');
    await s.admit('B');
    await s.admit('A');
    expect(closed).toEqual(['a1']);
    s.add(session('a3', 'A'));
    s.find('a2', 'A')!.active = 1;
    s.find('a3', 'A')!.active = 1;
    await expect(s.admit('A')).rejects.toMatchObject({ status: 429, code: 'MCP_TOO_MANY_SESSIONS' });
    s.find('a3', 'A')!.active = 0;
    clock = 2000;
    expect(await s.sweep()).toBe(1);
    expect(closed).toEqual(['a1', 'a3']);
    expect(s.size).toBe(1);
  });
});
