import { afterAll, describe, expect, it } from 'vitest';
import { okJson, startPlatform, type Platform } from '../helpers/platform.js';

const started: Platform[] = [];
afterAll(() => started.forEach((p) => p.cleanup()));

async function platform(args: string[]): Promise<Platform> {
  const p = await startPlatform({ args });
  started.push(p);
  return p;
}

const chat = (p: Platform, key: string, body: unknown) =>
  p.fetch('/v2/chat', {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const limitHeaders = (r: Response) => ({
  limit: Number(r.headers.get('x-ratelimit-limit')),
  remaining: Number(r.headers.get('x-ratelimit-remaining')),
  reset: Number(r.headers.get('x-ratelimit-reset')),
});

/** Fixed one-minute windows: start a sequence early in a minute so it cannot straddle two. */
async function awayFromMinuteEnd(): Promise<void> {
  const s = new Date().getUTCSeconds();
  if (s > 40) await new Promise((r) => setTimeout(r, (61 - s) * 1000));
}

describe('chat query bounds and metering', () => {
  it('1-2000 characters, each failure with its code and the rate-limit headers', async () => {
    const p = await platform([]);
    const key = p.boot.api_key;
    await awayFromMinuteEnd();
    const ok = await chat(p, key, { query: 'q'.repeat(2000) });
    expect(ok.status).toBe(200);
    expect(limitHeaders(ok)).toMatchObject({ limit: 20, remaining: 19 });
    const one = await chat(p, key, { query: 'x' });
    expect(one.status).toBe(200);
    const cases: Array<[unknown, string]> = [
      [{ query: 'q'.repeat(2001) }, 'QUERY_TOO_LONG'],
      [{ query: '' }, 'INVALID_PARAMETER'],
      [{ query: 42 }, 'INVALID_PARAMETER'],
      [{}, 'MISSING_PARAMETER'],
    ];
    for (const [body, code] of cases) {
      const r = await chat(p, key, body);
      expect(r.status, code).toBe(400);
      expect(await r.json()).toMatchObject({ status: 'error', code });
      // invalid requests are not counted, but say where the caller stands
      expect(limitHeaders(r)).toMatchObject({ limit: 20, remaining: 18 });
    }
    const tooLong = await p.cli(['chat', 'q'.repeat(2001)]);
    expect(tooLong.exitCode).toBe(1);
    expect(tooLong.stderr).toMatch(/QUERY_TOO_LONG/);

    const usage = await p.cli(['admin', 'usage', '--json']);
    expect(usage.exitCode, usage.stderr).toBe(0);
    const model = JSON.parse(usage.stdout).keys[0].models.find((m: { model: string }) => m.model === 'facet-grounded');
    expect(model.calls).toBe(2);
    expect(model.input_tokens).toBeGreaterThan(500);
    expect(model.output_tokens).toBeGreaterThan(0);
  });
});

describe('chat rate limits (spec 8)', () => {
  it('per key and per user per minute: at the bound, just past it, across keys and a restart', async () => {
    let p = await platform([
      '--chat-limit-key-per-minute',
      '3',
      '--chat-limit-user-per-minute',
      '4',
      '--chat-limit-user-per-hour',
      '100',
    ]);
    const keyB = okJson(await p.cli(['keys', 'create', '--name', 'second', '--json'])).key as string;
    await awayFromMinuteEnd();
    const a = p.boot.api_key;
    for (let i = 1; i <= 3; i++) {
      const r = await chat(p, a, { query: `question ${i}` });
      expect(r.status).toBe(200);
      // the per-key window (3) is the tighter dimension
      expect(limitHeaders(r)).toMatchObject({ limit: 3, remaining: 3 - i });
    }
    const over = await chat(p, a, { query: 'one too many' });
    expect(over.status).toBe(429);
    const body = await over.json();
    expect(body).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(body.message).toMatch(/3 per minute per API key/);
    expect(body.request_id).toBe(over.headers.get('x-request-id'));
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const h = limitHeaders(over);
    expect(h.remaining).toBe(0);
    expect(h.reset).toBeGreaterThan(Date.now() / 1000);

    // key B: the user's minute window (4) has one left, then it binds for every key
    const b1 = await chat(p, keyB, { query: 'from key b' });
    expect(b1.status).toBe(200);
    expect(limitHeaders(b1)).toMatchObject({ limit: 4, remaining: 0 });
    const b2 = await chat(p, keyB, { query: 'from key b again' });
    expect(b2.status).toBe(429);
    expect((await b2.json()).message).toMatch(/4 per minute per user/);

    const cli = await p.cli(['chat', 'still limited?', '--verbose']);
    expect(cli.exitCode).toBe(5);
    expect(cli.stderr).toMatch(/RATE_LIMITED/);
    expect(cli.stderr).toMatch(/rate limit: 0 of \d+ left/);
    expect(cli.stderr).toMatch(/--retry/);

    // windows live in the store: a restart does not reset them
    p = await p.restart();
    started.push(p);
    expect((await chat(p, a, { query: 'after restart' })).status).toBe(429);
  });

  it('per user per hour: at the bound and just past it', async () => {
    const p = await platform([
      '--chat-limit-key-per-minute',
      '50',
      '--chat-limit-user-per-minute',
      '50',
      '--chat-limit-user-per-hour',
      '2',
    ]);
    const a = p.boot.api_key;
    await awayFromMinuteEnd(); // the end of a minute is also where an hour ends
    const first = await chat(p, a, { query: 'one' });
    expect(limitHeaders(first)).toMatchObject({ limit: 2, remaining: 1 });
    const second = await chat(p, a, { query: 'two' });
    expect(second.status).toBe(200);
    const h = limitHeaders(second);
    expect(h).toMatchObject({ limit: 2, remaining: 0 });
    expect(h.reset % 3600).toBe(0);
    const third = await chat(p, a, { query: 'three' });
    expect(third.status).toBe(429);
    expect((await third.json()).message).toMatch(/2 per hour per user/);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    const ok = await p.cli(['chat', 'x', '--json']);
    expect(ok.exitCode).toBe(5);
  });
});
