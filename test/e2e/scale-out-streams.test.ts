import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterAll, afterEach, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { createTestDatabase, describePostgres, dropTestDatabases } from '../helpers/postgres.js';

/**
 * Issue 15: conversation streams across instances on one PostgreSQL. The event log is the truth;
 * NOTIFY only wakes the instances whose readers follow a stream written elsewhere.
 */
describePostgres('conversation streams across instances', () => {
  const instances: RunningServer[] = [];
  afterEach(async () => {
    for (const s of instances.splice(0)) await s.close();
  });
  afterAll(dropTestDatabases);

  const shared: Record<string, string> = {};
  async function start(url: string, n: number) {
    const started: RunningServer[] = [];
    const filesDir = (shared[url] ??= mkdtempSync(path.join(os.tmpdir(), 'facet-shared-files-')));
    // Answers paced like a model's, so a stream is still being written while it is read.
    for (let i = 0; i < n; i++)
      started.push(
        await startServer({
          databaseUrl: url,
          memory: true,
          port: 0,
          logLevel: 'silent',
          answerChunkDelayMs: 40,
          filesDir,
          adminKey: `adm_${'y'.repeat(40)}`,
        }),
      );
    instances.push(...started);
    return started;
  }

  /** Reads a stream's events until `stop` says so or it ends; the response is cut when stopped. */
  async function read(
    url: string,
    key: string,
    stop: (events: EventSourceMessage[]) => boolean = () => false,
    offset?: number,
  ) {
    const controller = new AbortController();
    const res = await fetch(`${url}/v2/conversations/stream/${key}${offset !== undefined ? `?offset=${offset}` : ''}`, {
      headers: { authorization: `Bearer ${apiKey}`, accept: 'text/event-stream' },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    const events: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (e) => events.push(e) });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
        if (events.some((e) => e.event === 'done' || e.event === 'error')) break;
        if (stop(events)) {
          controller.abort();
          break;
        }
      }
    } catch (err) {
      if (!controller.signal.aborted) throw err;
    }
    return events;
  }

  let apiKey = '';

  it('a reader on B follows an answer A writes, live; cut off, it resumes on C from its offset with nothing lost or doubled', async () => {
    const url = await createTestDatabase();
    const [a, b, c] = await start(url, 3);
    apiKey = a.bootstrap.data.api_key!;
    const created = await fetch(`${a.url}/v2/conversations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'Tell me about harbours and lighthouses and ferries' }),
    }).then((r) => r.json());
    const key = created.data.stream_key;

    const first = await read(b.url, key, (events) => events.filter((e) => e.event === 'message').length >= 3);
    expect(first.length).toBeGreaterThanOrEqual(3);
    // B saw those events while A was still writing: the stream had not ended when B was cut off.
    expect(first.some((e) => e.event === 'done')).toBe(false);
    const offset = Number(first[first.length - 1].id);
    const rest = await read(c.url, key, undefined, offset);
    expect(rest[rest.length - 1].event).toBe('done');

    const whole = await read(a.url, key);
    const seen = [...first, ...rest].map((e) => `${e.id}|${e.event}|${e.data}`);
    expect(seen).toEqual(whole.map((e) => `${e.id}|${e.event}|${e.data}`));
  }, 60_000);

  it('an instance starting while another writes an answer leaves that answer alone', async () => {
    const url = await createTestDatabase();
    const [a] = await start(url, 1);
    apiKey = a.bootstrap.data.api_key!;
    const created = await fetch(`${a.url}/v2/conversations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'Tell me about harbours and lighthouses and ferries' }),
    }).then((r) => r.json());
    const key = created.data.stream_key;
    await read(a.url, key, (events) => events.length >= 2);
    // A second instance starts mid-answer (it closes only streams whose writer is gone).
    await start(url, 1);
    const whole = await read(a.url, key);
    expect(whole[whole.length - 1].event).toBe('done');
    expect(whole.filter((e) => e.event === 'error')).toEqual([]);
  }, 60_000);
});
