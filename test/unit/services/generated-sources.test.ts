import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server/server.js';
import { addGeneratedResource } from '../../../src/server/services/resource-uploads.service.js';
import { retrieve, route } from '../../../src/server/services/retrieval.service.js';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A server with a LiveDoc "Harbour" holding one document of the given title and text. */
async function harbourWith(title: string, content: string) {
  server = await startServer({ memory: true, port: 0, logLevel: 'silent' });
  const h = { authorization: `Bearer ${server.bootstrap.data.api_key}`, 'content-type': 'application/json' };
  const post = (p: string, body: object) =>
    fetch(`${server!.url}${p}`, { method: 'POST', headers: h, body: JSON.stringify(body) }).then((r) => r.json());
  const ld: string = (await post('/v2/livedocs', { name: 'Harbour' })).data.short_id;
  const doc: { id: string } = (await post(`/v2/livedocs/${ld}/resources/doc`, { title, content })).data;
  return { ctx: server.ctx, userId: server.bootstrap.data.user_id, ld, doc };
}

describe('generated documents are not sources for writing another', () => {
  it('retrieve with sourcesOnly leaves out decks and mindmaps the platform wrote; plain retrieve still finds them', async () => {
    const { ctx, userId, ld, doc } = await harbourWith('Ferries', 'The harbour ferry leaves every forty minutes.');
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
    const { ctx, userId, ld, doc } = await harbourWith(
      'Timetable',
      'Exit codes: 1 means the ferry is late, 2 that it is cancelled.',
    );
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
