import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterAll, expect, it } from 'vitest';
import { startPlatform, type Platform } from '../helpers/platform.js';
import { createTestDatabase, describePostgres, dropTestDatabases } from '../helpers/postgres.js';
import { outageProxy, type OutageProxy } from '../helpers/outage-proxy.js';

/**
 * Issue 46: during a PostgreSQL outage an instance writing conversation answers exited with an
 * unhandled rejection (the stream writer's batch insert failed, and the paced appender's rejected
 * chain had no listener). Now the process lives through it, /readyz says 503 then 200 again, and
 * every stream being written ends cleanly: its answer completes once the database is back.
 */
describePostgres('a PostgreSQL outage while answers are being streamed', () => {
  let platform: Platform | undefined;
  let proxy: OutageProxy | undefined;
  afterAll(async () => {
    platform?.cleanup();
    await proxy?.close();
    await dropTestDatabases();
  });

  it('the process lives, readiness recovers, and every stream ends with its done event', async () => {
    proxy = await outageProxy(await createTestDatabase());
    const p = (platform = await startPlatform({
      databaseUrl: proxy.url,
      args: ['--answer-chunk-delay', '60'],
    }));
    const auth = { authorization: `Bearer ${p.boot.api_key}` };
    const post = async (pathname: string, body: unknown) => {
      const res = await p.fetch(pathname, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      return ((await res.json()) as { data: Record<string, string> }).data;
    };
    const ld = (await post('/v2/livedocs', { name: 'Atlas' })).short_id;
    const cli = await p.cli([
      'livedocs',
      'resources',
      'add-doc',
      ld,
      '--title',
      'Freedonia',
      '--content',
      'Freedonia is a small republic on the coast. The capital of Freedonia is Fredville, a river port founded in 1822. The population of Freedonia is 2 million people. Its rivers flood every spring, and the port trades grain, wool and timber.',
    ]);
    expect(cli.exitCode, cli.stderr).toBe(0);

    const waitReady = async (status: number) => {
      for (let i = 0; i < 150; i++) {
        if ((await p.fetch('/readyz')).status === status) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`/readyz never answered ${status}`);
    };
    /** Reads a stream to its end (done or error), with a parser from npm. */
    const readStream = async (key: string) => {
      let res: Response;
      // A reader that arrives during the outage is answered 503 with Retry-After, and comes back.
      for (let tries = 0; ; tries++) {
        res = await p.fetch(`/v2/conversations/stream/${key}`, {
          headers: { ...auth, accept: 'text/event-stream' },
          signal: AbortSignal.timeout(90_000),
        });
        if (res.status !== 503 || tries > 100) break;
        expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
        await res.body?.cancel();
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(res.status).toBe(200);
      const events: EventSourceMessage[] = [];
      const parser = createParser({ onEvent: (e) => events.push(e) });
      const decoder = new TextDecoder();
      const reader = res.body!.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
        const last = events.at(-1)?.event;
        if (last === 'done' || last === 'error') break;
      }
      await reader.cancel().catch(() => undefined);
      return events;
    };

    const started = await Promise.all(
      ['What is the capital of Freedonia?', 'How many people live in Freedonia?', 'What does the port trade?'].map(
        (query) => post('/v2/conversations', { query, live_doc_short_id: ld }),
      ),
    );
    const reading = Promise.all(started.map((s) => readStream(s.stream_key)));
    reading.catch(() => undefined); // awaited below, after the outage
    // The outage begins while the answers are being written, chunk by chunk.
    await new Promise((r) => setTimeout(r, 300));
    await proxy.down();
    await waitReady(503);
    await new Promise((r) => setTimeout(r, 3_000));
    await proxy.up();
    await waitReady(200);

    // Each stream ends cleanly: its answer complete, or (when the model call itself met the outage,
    // its usage could not be metered) an error event that says the database was away.
    const streams = await reading;
    for (const events of streams) {
      const last = events.at(-1);
      expect(['done', 'error'], JSON.stringify(events.slice(-3))).toContain(last?.event);
      if (last?.event === 'error') expect(last.data).toMatch(/database cannot be reached/);
      const seqs = events.map((e) => Number(e.id));
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    }
    // Still the same process, and it never met a rejection nobody handled.
    expect(() => process.kill(p.pid, 0)).not.toThrow();
    expect((await p.fetch('/healthz')).status).toBe(200);
    expect(p.serverOutput()).not.toMatch(/unhandled|ERR_UNHANDLED_REJECTION/i);
    // A new answer after the outage is written as usual.
    const after = await post('/v2/conversations', {
      query: 'What is the capital of Freedonia?',
      live_doc_short_id: ld,
    });
    expect((await readStream(after.stream_key)).at(-1)?.event).toBe('done');
  }, 180_000);
});
