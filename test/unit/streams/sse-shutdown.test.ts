import Fastify from 'fastify';
import { afterEach, expect, it } from 'vitest';
import { createParser } from 'eventsource-parser';
import { openStore, type Store } from '../../../src/server/store/store.js';
import { StreamHub } from '../../../src/server/streams/hub.js';
import { serveStream } from '../../../src/server/streams/sse.js';
import { insertUser } from '../../../src/server/store/users.repo.js';
import { insertStream } from '../../../src/server/store/streams.repo.js';

/**
 * A shutdown ends the stream readers it still has (their writer is elsewhere, or past the drain):
 * each response ends asking its client to come back (`retry:`), so an EventSource reconnects
 * through the balancer and resumes from its offset; it never ends as an empty, finished stream.
 */
let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

it('a reader ended by a shutdown is told to reconnect, after the events it had', async () => {
  store = await openStore({ dataDir: null });
  const hub = new StreamHub(store.db);
  const app = Fastify();
  app.get('/stream/:key', (request, reply) =>
    serveStream(hub, (request.params as { key: string }).key, 0, request, reply, 15),
  );
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const at = '2026-01-01T00:00:00.000Z';
    await insertUser(store.db, { id: 'u1', name: 'u1', role: 'user', plan: 'free', credits: 0, created_at: at });
    await insertStream(store.db, {
      key: 'k1',
      user_id: 'u1',
      status: 'open',
      created_at: at,
      expires_at: '2100-01-01T00:00:00.000Z',
      writer: null,
    });
    await hub.append('k1', 'message', { content: 'Hi' });
    const res = await fetch(`${url}/stream/k1`);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('event: message')) text += decoder.decode((await reader.read()).value, { stream: true });
    hub.endReaders();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    const events: string[] = [];
    let retry: number | undefined;
    createParser({ onEvent: (e) => events.push(e.event ?? ''), onRetry: (ms) => (retry = ms) }).feed(text);
    expect(events).toEqual(['message']);
    expect(retry).toBe(1000);
    expect(hub.readers.size).toBe(0);
  } finally {
    await app.close();
  }
});
