import { describe, expect, it } from 'vitest';
import { VerifiedTokenCache } from '../../../src/server/auth/token-cache.js';

describe('VerifiedTokenCache', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const exp = now.getTime() / 1000 + 60;

  it('answers a verified token until it expires, and never keeps a failed check', () => {
    const cache = new VerifiedTokenCache();
    cache.set('t', { ok: true, userId: 'u1', exp });
    cache.set('bad', { ok: false, reason: 'invalid' });
    expect(cache.get('t', now)).toEqual({ ok: true, userId: 'u1', exp });
    expect(cache.get('t', new Date((exp + 1) * 1000))).toEqual({ ok: false, reason: 'expired' });
    expect(cache.get('bad', now)).toBeUndefined();
  });

  it('drops the least recently used token when full', () => {
    const cache = new VerifiedTokenCache(2);
    cache.set('a', { ok: true, userId: 'ua', exp });
    cache.set('b', { ok: true, userId: 'ub', exp });
    expect(cache.get('a', now)).toMatchObject({ ok: true }); // a busy client's token stays
    cache.set('c', { ok: true, userId: 'uc', exp });
    expect(cache.get('a', now)).toMatchObject({ userId: 'ua' });
    expect(cache.get('b', now)).toBeUndefined();
    expect(cache.get('c', now)).toMatchObject({ userId: 'uc' });
  });
});
