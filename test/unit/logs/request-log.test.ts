import { describe, expect, it } from 'vitest';
import { RequestLog, RING_SIZE, type RingReader } from '../../../src/server/logs/request-log.js';
import { globToRegExp, lineFilter } from '../../../src/server/logs/tail.js';
import type { RequestLogLine } from '../../../src/contract/audit.js';

const line = (over: Partial<RequestLogLine> = {}): RequestLogLine => ({
  time: '2026-01-01T00:00:00.000Z',
  method: 'GET',
  path: '/v2/livedocs',
  status: 200,
  duration_ms: 1,
  key_id: 'key_a',
  user_id: 'usr_a',
  request_id: 'r',
  instance: null,
  ...over,
});

describe('the request log ring', () => {
  it('holds at most RING_SIZE lines; a reader that fell behind skips to the oldest kept and is told how many it missed', () => {
    const log = new RequestLog({} as never);
    const reader: RingReader = { next: log.seq, wake: () => undefined };
    log.attach(reader);
    for (let i = 0; i < RING_SIZE + 5; i++) log.publish(line({ request_id: `r${i}` }));
    const first = log.read(reader);
    expect(first.skipped).toBe(5);
    expect(first.line?.request_id).toBe('r5');
    let n = 1;
    while (log.read(reader).line) n++;
    expect(n).toBe(RING_SIZE);
    expect(log.read(reader)).toEqual({ skipped: 0 });
  });
});

describe('tail filters', () => {
  it('matches status classes and codes, globs, keys, methods, and an owner', () => {
    expect(lineFilter({ status: '4xx' })(line({ status: 404 }))).toBe(true);
    expect(lineFilter({ status: '4xx' })(line({ status: 500 }))).toBe(false);
    expect(lineFilter({ status: '401,5xx' })(line({ status: 503 }))).toBe(true);
    expect(lineFilter({ status: '401,5xx' })(line({ status: 404 }))).toBe(false);
    expect(lineFilter({ path: '/v2/*' })(line({ path: '/v2/web/extract' }))).toBe(true);
    expect(lineFilter({ path: '/v2/*' })(line({ path: '/v1/beta/x' }))).toBe(false);
    expect(globToRegExp('/a.b?').test('/a.bc')).toBe(true);
    expect(globToRegExp('/a.b').test('/aXb')).toBe(false);
    expect(lineFilter({ key: 'key_b' })(line())).toBe(false);
    expect(lineFilter({ method: 'post' })(line({ method: 'POST' }))).toBe(true);
    expect(lineFilter({ ownerUserId: 'usr_a' })(line())).toBe(true);
    expect(lineFilter({ ownerUserId: 'usr_a' })(line({ key_id: null }))).toBe(false);
    expect(lineFilter({ ownerUserId: 'usr_b' })(line())).toBe(false);
  });
});
