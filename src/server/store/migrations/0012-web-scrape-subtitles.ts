import type { Kysely, Migration } from 'kysely';

/**
 * Issue 12: the web extraction cache, batch scrape jobs with their pages and idempotency keys, and
 * the subtitle store. Frozen in time like every migration: no imports of the app's current types.
 */
export const webScrapeSubtitles: Migration = {
  async up(db: Kysely<unknown>) {
    // One extraction result per normalised URL + options (docs/decisions.md: lifetime, no cookies).
    await db.schema
      .createTable('web_extract_cache')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('result', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('web_extract_cache_created').on('web_extract_cache').column('created_at').execute();

    // Idempotency-Key per API key: the request's hash, and its job once the first request is taken.
    await db.schema
      .createTable('idempotency_keys')
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('request_hash', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('job_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('idempotency_keys_pk', ['scope', 'key'])
      .execute();

    await db.schema
      .createTable('scrape_jobs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('api_key_id', 'text')
      .addColumn('request', 'text', (c) => c.notNull())
      .addColumn('total', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('scrape_pages')
      .addColumn('job_id', 'text', (c) => c.notNull())
      .addColumn('idx', 'integer', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      // pending → started → done | failed; a page is fetched only from pending.
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('result', 'text')
      .addColumn('error', 'text')
      .addColumn('finished_at', 'text')
      .addPrimaryKeyConstraint('scrape_pages_pk', ['job_id', 'idx'])
      .execute();
    await db.schema.createIndex('scrape_pages_state').on('scrape_pages').columns(['job_id', 'state']).execute();

    // Subtitle tracks: one per video, language and kind (manual or generated).
    await db.schema
      .createTable('subtitle_tracks')
      .addColumn('video_code', 'text', (c) => c.notNull())
      .addColumn('language', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('cues', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('subtitle_tracks_pk', ['video_code', 'language', 'kind'])
      .execute();
  },
};
