import http from 'node:http';
import { afterAll, expect, it } from 'vitest';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { startPlatform, type Platform } from '../helpers/platform.js';

/**
 * Issue 39: a SIGTERM'd instance with kept-alive connections (fetch's pool, a plain keep-alive
 * agent) and streamed answers in flight: /readyz is 503 at once, new requests are still served
 * during --drain-delay (closing their connections), the answers finish without an error event, and
 * the process exits within --drain-timeout plus a second, not a keep-alive timeout later.
 * (drain-store-outage.test.ts stops one whose tasks wait on an unreachable store.)
 */
let p: Platform | undefined;
afterAll(() => p?.cleanup());

it('exits within --drain-timeout plus a second with kept-alive connections, after serving through the drain delay', async () => {
  p = await startPlatform({ args: ['--answer-chunk-delay', '60', '--drain-timeout', '8', '--drain-delay', '2'] });
  const platform = p;
  const auth = { authorization: `Bearer ${platform.boot.api_key}` };
  const ld = (
    (await (
      await platform.fetch('/v2/livedocs', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Harbour' }),
      })
    ).json()) as { data: { short_id: string } }
  ).data.short_id;
  const add = await platform.cli([
    'livedocs',
    'resources',
    'add-doc',
    ld,
    '--title',
    'Ferries',
    '--content',
    'The ferry to the island leaves every forty minutes from the north pier. Tickets are sold at the kiosk beside the pier.',
    '--json',
  ]);
  expect(add.exitCode).toBe(0);

  // fetch keeps its connections alive: after their answers they stay open, idle, in its pool.
  const readers: Array<Promise<EventSourceMessage[]>> = [];
  for (let i = 0; i < 4; i++) {
    const started = await platform.fetch('/v2/conversations', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ query: `How often does the ferry leave? (${i})`, live_doc_short_id: ld }),
    });
    const key = ((await started.json()) as { data: { stream_key: string } }).data.stream_key;
    const res = await platform.fetch(`/v2/conversations/stream/${key}`, {
      headers: { ...auth, accept: 'text/event-stream' },
    });
    expect(res.status).toBe(200);
    readers.push(
      (async () => {
        const events: EventSourceMessage[] = [];
        const parser = createParser({ onEvent: (e) => events.push(e) });
        const decoder = new TextDecoder();
        const reader = res.body!.getReader();
        for (;;) {
          const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
          if (done) break;
          parser.feed(decoder.decode(value, { stream: true }));
        }
        return events;
      })(),
    );
  }
  // A streamed model answer on a kept-alive connection of a plain agent: busy when the close
  // begins, idle once the answer has ended. Node closes idle connections once, at the close.
  const agent = new http.Agent({ keepAlive: true });
  const modelAnswer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      `${platform.url}/api/v1/chat/completions`,
      { method: 'POST', agent, headers: { ...auth, 'content-type': 'application/json' } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(
      JSON.stringify({
        model: 'facet-grounded',
        stream: true,
        messages: [{ role: 'user', content: 'How often does the ferry to the island leave from the north pier?' }],
      }),
    );
  });
  await new Promise((r) => setTimeout(r, 200));
  const exited = new Promise<number>((resolve) => {
    const proc = process;
    const poll = setInterval(() => {
      try {
        proc.kill(platform.pid, 0);
      } catch {
        clearInterval(poll);
        resolve(Date.now());
      }
    }, 50);
  });
  const sigterm = Date.now();
  process.kill(platform.pid, 'SIGTERM');
  await new Promise((r) => setTimeout(r, 300));
  expect((await platform.fetch('/readyz')).status).toBe(503);
  // Still served during the drain delay: the balancer has not stopped sending yet.
  const served = await platform.fetch('/v2/livedocs', { headers: auth });
  expect(served.status).toBe(200);
  expect(served.headers.get('connection')).toBe('close');
  const streams = await Promise.all(readers);
  const answer = await modelAnswer;
  expect(answer.status).toBe(200);
  expect(answer.body).toMatch(/data: \[DONE\]/);
  for (const events of streams) {
    expect(events.filter((e) => e.event === 'error')).toEqual([]);
    expect(events.at(-1)?.event).toBe('done');
  }
  const answersEnded = Date.now() - sigterm;
  const at = await Promise.race([exited, new Promise<number>((r) => setTimeout(() => r(-1), 20_000))]);
  expect(at, 'the process was still running 20 s after SIGTERM').toBeGreaterThan(0);
  const took = at - sigterm;
  expect(took).toBeLessThanOrEqual(8_000 + 1_000);
  // It did not sit out a keep-alive timeout after its answers had ended.
  expect(took - Math.max(answersEnded, 2_000)).toBeLessThan(3_000);
  expect(platform.serverOutput()).toMatch(/facet serve: stopped/);
}, 90_000);
