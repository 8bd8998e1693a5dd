import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server/server.js';
import { addGeneratedResource } from '../../../src/server/services/resource-uploads.service.js';
import { retrieve, route } from '../../../src/server/services/retrieval.service.js';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('generated documents are not sources for writing another', () => {
  it('retrieve with sourcesOnly leaves out decks and mindmaps the platform wrote; plain retrieve still finds them', async () => {
    server = await startServer({ memory: true, port: 0, logLevel: 'silent' });
    const ctx = server.ctx;
    const userId = server.bootstrap.data.user_id;
    const h = { authorization: `Bearer ${server.bootstrap.data.api_key}`, 'content-type': 'application/json' };
    const ld = (
      await fetch(`${server.url}/v2/livedocs`, {
        method: 'POST',
        headers: h,
        body: JSON.stringify({ name: 'Harbour' }),
      }).then((r) => r.json())
    ).data.short_id;
    const doc = (
      await fetch(`${server.url}/v2/livedocs/${ld}/resources/doc`, {
        method: 'POST',
        headers: h,
        body: JSON.stringify({ title: 'Ferries', content: 'The harbour ferry leaves every forty minutes.' }),
      }).then((r) => r.json())
    ).data;
    for (const [id, source, type] of [
      ['res_gendeck', 'ppt', 'ai_ppt'],
      ['res_genmap', 'mindmap', 'mindmap'],
    ]) {
      await addGeneratedResource(
        ctx,
        ld,
        {
          id,
          title: `Generated ${type}`,
          resourceType: type,
          contentType: type,
          source,
          resourceKey: `${source}:${id}`,
          text: `The harbour ferry leaves every forty minutes (from the LiveDoc, in the ${type}).`,
          file: { name: 'out.bin', mime: 'application/octet-stream', data: Buffer.from('x') },
        },
        // Each its own text: chunks with the same text are one passage at retrieval.
        [
          {
            ordinal: 0,
            page: null,
            title: 'Harbour ferry',
            content: `The harbour ferry leaves every forty minutes (from the LiveDoc, in the ${type}).`,
          },
        ],
      );
    }
    // Left out unless asked, as in answers: retrieve and route alike (issue 44).
    const sources = await retrieve(ctx, userId, ld, { query: 'harbour ferry forty minutes' });
    expect(sources.map((r) => r.id)).toEqual([doc.id]);
    const all = await retrieve(ctx, userId, ld, { query: 'harbour ferry forty minutes', include_generated: true });
    expect(new Set(all.map((r) => r.id))).toEqual(new Set([doc.id, 'res_gendeck', 'res_genmap']));
    expect(await route(ctx, userId, ld, { query: 'harbour ferry forty minutes' })).toEqual([doc.id]);
    expect(
      new Set(await route(ctx, userId, ld, { query: 'harbour ferry forty minutes', include_generated: true })),
    ).toEqual(new Set([doc.id, 'res_gendeck', 'res_genmap']));
  });

  // Session 79: in the content bench's dev LiveDoc, the decks and mindmaps written earlier filled the
  // search's limit before being left out, and pdftoppm's mindmap lost its EXIT CODES passage.
  it('many generated documents matching better take no place among the hits: the source is still found', async () => {
    server = await startServer({ memory: true, port: 0, logLevel: 'silent' });
    const ctx = server.ctx;
    const userId = server.bootstrap.data.user_id;
    const h = { authorization: `Bearer ${server.bootstrap.data.api_key}`, 'content-type': 'application/json' };
    const ld = (
      await fetch(`${server.url}/v2/livedocs`, {
        method: 'POST',
        headers: h,
        body: JSON.stringify({ name: 'Harbour' }),
      }).then((r) => r.json())
    ).data.short_id;
    const doc = (
      await fetch(`${server.url}/v2/livedocs/${ld}/resources/doc`, {
        method: 'POST',
        headers: h,
        body: JSON.stringify({
          title: 'Timetable',
          content: 'Exit codes: 1 means the ferry is late, 2 that it is cancelled.',
        }),
      }).then((r) => r.json())
    ).data;
    for (let i = 0; i < 120; i++) {
      const text = `Ferry options ${i}: the harbour ferry ferry options, exit codes and ferry times.`;
      await addGeneratedResource(
        ctx,
        ld,
        {
          id: `res_gen${i}`,
          title: `Generated deck ${i}`,
          resourceType: 'ai_ppt',
          contentType: 'ai_ppt',
          source: 'ppt',
          resourceKey: `ppt:gen${i}`,
          text,
          file: { name: 'out.bin', mime: 'application/octet-stream', data: Buffer.from('x') },
        },
        [{ ordinal: 0, page: null, title: `Ferry options ${i}`, content: text }],
      );
    }
    const found = await retrieve(ctx, userId, ld, { query: 'ferry options exit codes' });
    expect(found.map((r) => r.id)).toEqual([doc.id]);
  });
});
