import type { Kysely } from 'kysely';
import type { Database } from '../../src/server/store/database.js';
import { insertUser } from '../../src/server/store/users.repo.js';
import { insertLiveDoc } from '../../src/server/store/livedocs.repo.js';
import { insertResource } from '../../src/server/store/resources.repo.js';
import { indexResource } from '../../src/server/engines/retrieval/index.js';
import type { TextChunk } from '../../src/server/engines/retrieval/chunker.js';

const at = '2026-01-01T00:00:00.000Z';

/**
 * User u1's LiveDoc `livedocId` holding these documents as completed resources, each indexed for
 * retrieval as an upload is: what retrieval and grounding tests search.
 */
export async function indexedLiveDoc(
  db: Kysely<Database>,
  docs: Array<{ id: string; title: string; text: string; chunks?: TextChunk[] }>,
  livedocId = 'ld',
): Promise<void> {
  await insertUser(db, { id: 'u1', name: 'u1', role: 'user', plan: 'free', credits: 0, created_at: at });
  await insertLiveDoc(db, {
    id: livedocId,
    owner_id: 'u1',
    name: 'Set',
    description: '',
    icon: '',
    created_at: at,
    modified_at: at,
  });
  for (const d of docs) {
    await insertResource(db, {
      id: d.id,
      livedoc_id: livedocId,
      title: d.title,
      link: '',
      snippet: '',
      thumbnail: '',
      resource_type: 'ai_doc',
      resource_key: d.id,
      status: 'completed',
      source: 'doc',
      content_type: 'text',
      text: d.text,
      file_path: null,
      file_name: null,
      mime_type: null,
      created_at: at,
      modified_at: at,
    });
    // A PDF's chunks are cut page by page (chunkPages), as its upload's are.
    await indexResource(db, { id: d.id, livedoc_id: livedocId, title: d.title, text: d.text }, d.chunks);
  }
}
