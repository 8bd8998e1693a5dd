import { afterAll, expect, it } from 'vitest';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { startPlatform, type Platform } from '../helpers/platform.js';

/**
 * Issue 26: SIGTERM while paced answers are being written. The instance refuses new work (503) but
 * finishes the answers it writes (within --drain-timeout), so no reader sees an error event caused
 * by the stop; then it exits.
 */
let p: Platform | undefined;
afterAll(() => p?.cleanup());

it('a SIGTERM lets the answers being written finish: 0 readers see an error event', async () => {
  p = await startPlatform({ args: ['--answer-chunk-delay', '40', '--drain-timeout', '30'] });
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
  const doc = {
    title: 'Ferries',
    content:
      'The ferry to the island leaves every forty minutes from the north pier. The harbour light is green at night. Tickets are sold at the kiosk beside the pier and on board.',
  };
  expect(
    (
      await platform.cli([
        'livedocs',
        'resources',
        'add-doc',
        ld,
        '--title',
        doc.title,
        '--content',
        doc.content,
        '--json',
      ])
    ).exitCode,
  ).toBe(0);

  const readers: Array<Promise<EventSourceMessage[]>> = [];
  let firstEvents = 0;
  for (let i = 0; i < 8; i++) {
    const started = await platform.fetch('/v2/conversations', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ query: `How often does the ferry leave? (${i})`, live_doc_short_id: ld }),
    });
    expect(started.status).toBe(200);
    const key = ((await started.json()) as { data: { stream_key: string } }).data.stream_key;
    const res = await platform.fetch(`/v2/conversations/stream/${key}`, {
      headers: { ...auth, accept: 'text/event-stream' },
    });
    expect(res.status).toBe(200);
    readers.push(
      (async () => {
        const events: EventSourceMessage[] = [];
        let counted = false;
        const parser = createParser({
          onEvent: (e) => {
            events.push(e);
            if (!counted) firstEvents += counted ? 0 : 1;
            counted = true;
          },
        });
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
  while (firstEvents < readers.length) await new Promise((r) => setTimeout(r, 20));
  const stopping = platform.stop();
  const streams = await Promise.all(readers);
  await stopping;
  for (const events of streams) {
    expect(events.filter((e) => e.event === 'error')).toEqual([]);
    expect(events.at(-1)?.event).toBe('done');
  }
}, 120_000);
