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
});
