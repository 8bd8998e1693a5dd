import Fastify from 'fastify';
import { afterEach, expect, it } from 'vitest';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { openStore, type Store } from '../../../src/server/store/store.js';
import { StreamHub } from '../../../src/server/streams/hub.js';
import { serveStream } from '../../../src/server/streams/sse.js';
import { insertUser } from '../../../src/server/store/users.repo.js';
import { insertStream } from '../../../src/server/store/streams.repo.js';

/**
 * A reader that connects while the stream is ending: the last events and the end are committed
 * while the reader's replay is reading the log (a slow database, an outage ridden out). The reader
 * got the end alone, without the message before it, since the end was looked up in the log before
 * the events that had arrived live meanwhile were sent.
 */
let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

async function readAll(url: string): Promise<EventSourceMessage[]> {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (e) => events.push(e) });
  parser.feed(await res.text());
  return events;
}

it('events committed during the replay come before the end, each once, in order', async () => {
  store = await openStore({ dataDir: null });
  const hub = new StreamHub(store.db);
  const at = '2026-01-01T00:00:00.000Z';
  await insertUser(store.db, { id: 'u1', name: 'u1', role: 'user', plan: 'free', credits: 0, created_at: at });
  for (const key of ['k1', 'k2'])
    await insertStream(store.db, {
      key,
      user_id: 'u1',
      status: 'open',
      created_at: at,
      expires_at: '2100-01-01T00:00:00.000Z',
      writer: null,
    });
  await hub.append('k2', 'message', { content: 'before' });
  // The writer finishes while the reader's replay is in flight: the replay saw the log before it.
  const replay = hub.replay.bind(hub);
  let first = true;
  hub.replay = async (key, from) => {
    const rows = await replay(key, from);
    if (first) {
      first = false;
      await hub.append(key, 'message', { content: 'Hi' });
      await hub.append(key, 'done', {});
    }
    return rows;
  };
  const app = Fastify();
  app.get('/stream/:key', (request, reply) =>
    serveStream(hub, (request.params as { key: string }).key, 0, request, reply, 15),
  );
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const one = await readAll(`${url}/stream/k1`);
    expect(one.map((e) => [e.id, e.event, e.data])).toEqual([
      ['1', 'message', '{"content":"Hi"}'],
      ['2', 'done', '{}'],
    ]);
    // With an event already in the log, the replay's and the live ones join without a repeat.
    first = true;
    const two = await readAll(`${url}/stream/k2`);
    expect(two.map((e) => [e.id, e.event])).toEqual([
      ['1', 'message'],
      ['2', 'message'],
      ['3', 'done'],
    ]);
  } finally {
    await app.close();
  }
});

it('an event the log refused leaves no gap: the next one takes its place', async () => {
  store = await openStore({ dataDir: null });
  const hub = new StreamHub(store.db);
  const at = '2026-01-01T00:00:00.000Z';
  await insertUser(store.db, { id: 'u1', name: 'u1', role: 'user', plan: 'free', credits: 0, created_at: at });
  // Refused by the store (no such stream yet): not an outage, so each append fails.
  await expect(hub.append('k3', 'message', { content: 'lost' })).rejects.toThrow();
  await expect(hub.append('k3', 'message', { content: 'lost too' })).rejects.toThrow();
  await insertStream(store.db, {
    key: 'k3',
    user_id: 'u1',
    status: 'open',
    created_at: at,
    expires_at: '2100-01-01T00:00:00.000Z',
    writer: null,
  });
  await hub.append('k3', 'message', { content: 'kept' });
  await hub.append('k3', 'error', { message: 'x' });
  expect((await hub.replay('k3', 0)).map((e) => [e.seq, e.type])).toEqual([
    [0, 'message'],
    [1, 'error'],
  ]);
});
