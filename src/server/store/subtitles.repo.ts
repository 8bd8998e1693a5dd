import type { Kysely, Selectable } from 'kysely';
import type { Database, SubtitleTracksTable } from './database.js';

export type SubtitleTrackRow = Selectable<SubtitleTracksTable>;

/** Every track of a video, oldest first (the order "the available language" is chosen in), manual before generated on a tie. */
export async function tracksOf(db: Kysely<Database>, videoCode: string): Promise<SubtitleTrackRow[]> {
  return db
    .selectFrom('subtitle_tracks')
    .selectAll()
    .where('video_code', '=', videoCode)
    .orderBy('created_at')
    .orderBy('language')
    .orderBy('kind', 'desc')
    .execute();
}

/** Adds or replaces the track of one video, language and kind. */
export async function putTrack(db: Kysely<Database>, row: SubtitleTrackRow): Promise<void> {
  await db
    .insertInto('subtitle_tracks')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['video_code', 'language', 'kind'])
        .doUpdateSet({ title: row.title, cues: row.cues, source: row.source, created_at: row.created_at }),
    )
    .execute();
}

/** Adds a track only when that video, language and kind has none (seeding never overwrites). */
export async function putTrackIfAbsent(db: Kysely<Database>, row: SubtitleTrackRow): Promise<void> {
  await db
    .insertInto('subtitle_tracks')
    .values(row)
    .onConflict((oc) => oc.columns(['video_code', 'language', 'kind']).doNothing())
    .execute();
}
