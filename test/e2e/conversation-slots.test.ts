import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type Platform } from '../helpers/platform.js';

/**
 * A conversation's model call ends when its answer is generated; delivering the answer into the
 * stream at a pace (--answer-chunk-delay) is not a model call in flight, so while a slow stream is
 * still being delivered the key's concurrency slot is free for its next model call.
 */
let p: Platform;
let ld: string;

const bearer = () => ({ Authorization: `Bearer ${p.boot.api_key}` });
const post = (pathname: string, body: unknown) =>
  p.fetch(pathname, {
    method: 'POST',
    headers: { ...bearer(), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  // One model call per key at a time, and answers delivered 250 ms a piece.
  p = await startPlatform({ args: ['--answer-chunk-delay', '250', '--key-concurrency', '1'] });
  ld = ((await (await post('/v2/livedocs', { name: 'Handbook' })).json()) as { data: { short_id: string } }).data
    .short_id;
  await post(`/v2/livedocs/${ld}/resources/doc`, {
    title: 'Hours',
    content: 'The office opens at nine. Lunch is served at noon in the atrium. Badges are renewed every January.',
  });
});
afterAll(() => p?.cleanup());

describe('a paced conversation stream', () => {
  it('leaves the key free for another model call while it is still being delivered, and still ends with done', async () => {
    const started = (await (
      await post('/v2/conversations', { query: 'When is lunch served?', live_doc_short_id: ld })
    ).json()) as { data: { stream_key: string } };
    const res = await p.fetch(`/v2/conversations/stream/${started.data.stream_key}`, {
      headers: { ...bearer(), accept: 'text/event-stream' },
    });
    expect(res.status).toBe(200);
    let text = '';
    let ended = false;
    const reading = (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of res.body!) text += decoder.decode(chunk as Uint8Array, { stream: true });
      ended = true;
    })();

    // Another model call of the same key, tried until it is let in or the stream has ended.
    let answeredWhileOpen = false;
    const refusals: number[] = [];
    while (!ended) {
      const call = await post('/api/v1/chat/completions', {
        model: 'facet-echo',
        messages: [{ role: 'user', content: 'ping' }],
      });
      await call.text();
      if (call.status === 200 && !ended) {
        answeredWhileOpen = true;
        break;
      }
      refusals.push(call.status);
      await new Promise((r) => setTimeout(r, 100));
    }
    await reading;
    expect(answeredWhileOpen, `refused with ${refusals.join(', ')} until the stream ended`).toBe(true);
    const events = [...text.matchAll(/^event: (\S+)$/gm)].map((m) => m[1]);
    expect(events).not.toContain('error');
    expect(events.filter((e) => e === 'message').length).toBeGreaterThan(2);
    expect(events[events.length - 1]).toBe('done');
  });
});
