import type { AppContext } from '../context.js';
import type { SubtitlesData } from '../../contract/subtitles.js';
import { HttpError } from '../errors.js';
import type { Cue } from '../engines/subtitles/parse.js';
import { putTrack, putTrackIfAbsent, tracksOf, type SubtitleTrackRow } from '../store/subtitles.repo.js';
import { SEED_TRACKS } from '../providers/subtitles/seed.js';
import { subtitleUpstream } from '../providers/subtitles/upstream.js';
import { UpstreamError } from '../providers/upstream-http.js';

const fail = (message: string, status = 400) => new HttpError('YOUTUBE_SUBTITLING_FAILED', message, { status });

/** Language tags compare without regard to case (zh-cn is zh-CN). */
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The track to answer with, as youtube-transcript-api picks one: for the asked tag, then its base
 * language (zh-CN → zh), a manual track before a generated one. Without a language: the first manual
 * track, else the first generated one (tracks come oldest first).
 */
export function chooseTrack<T extends Pick<SubtitleTrackRow, 'language' | 'kind'>>(
  tracks: T[],
  language?: string,
): T | undefined {
  if (!language) return tracks.find((t) => t.kind === 'manual') ?? tracks[0];
  const wanted = [language];
  const base = language.split('-')[0];
  if (!same(base, language)) wanted.push(base);
  for (const lang of wanted) {
    for (const kind of ['manual', 'generated'] as const) {
      const hit = tracks.find((t) => t.kind === kind && same(t.language, lang));
      if (hit) return hit;
    }
  }
  return undefined;
}

const describe = (tracks: Pick<SubtitleTrackRow, 'language' | 'kind'>[]) =>
  tracks.map((t) => `${t.language} (${t.kind})`).join(', ');

let seeded: WeakSet<object> = new WeakSet();

/** Puts the shipped demo tracks in a store once per process; existing tracks are never replaced. */
export async function ensureSeeded(ctx: Pick<AppContext, 'db' | 'now'>): Promise<void> {
  if (seeded.has(ctx.db)) return;
  // In list order, so the list decides which track is "the available one".
  for (const [i, t] of SEED_TRACKS.entries()) {
    const at = new Date(i * 1000).toISOString();
    await putTrackIfAbsent(ctx.db, {
      video_code: t.videoCode,
      language: t.language,
      kind: t.kind,
      title: t.title,
      cues: JSON.stringify(t.cues),
      source: 'seed',
      created_at: at,
    });
  }
  seeded.add(ctx.db);
}

function answer(
  track: Pick<SubtitleTrackRow, 'title' | 'language' | 'kind'>,
  cues: Cue[],
  withTime: boolean,
): SubtitlesData {
  return {
    title: track.title,
    contents: cues.map((c) => (withTime ? { start: c.start, duration: c.duration, text: c.text } : { text: c.text })),
    language: track.language,
    kind: track.kind,
  };
}

/**
 * GET /v2/youtube/subtitling: the store first; when it has nothing for the video and an upstream is
 * configured, the upstream's answer (kept in the store for next time). Only existing subtitles.
 */
export async function getSubtitles(
  ctx: AppContext,
  q: { video_code: string; language?: string; with_time: boolean },
): Promise<SubtitlesData> {
  await ensureSeeded(ctx);
  const tracks = await tracksOf(ctx.db, q.video_code);
  const chosen = chooseTrack(tracks, q.language);
  if (chosen) return answer(chosen, JSON.parse(chosen.cues) as Cue[], q.with_time);
  const upstream = ctx.config.subtitlesUpstream
    ? subtitleUpstream(ctx.config.subtitlesUpstream, ctx.fetchPolicy)
    : undefined;
  if (upstream) {
    let got;
    try {
      got = await upstream.fetch(q.video_code, q.language);
    } catch (err) {
      if (err instanceof UpstreamError) throw fail(`the subtitle upstream failed: ${err.message}`, 502);
      throw err;
    }
    if (got) {
      const row: SubtitleTrackRow = {
        video_code: q.video_code,
        language: got.language ?? q.language ?? 'und',
        kind: got.kind ?? 'manual',
        title: got.title,
        cues: JSON.stringify(got.cues),
        source: 'upstream',
        created_at: ctx.now().toISOString(),
      };
      await putTrack(ctx.db, row);
      return answer(row, got.cues, q.with_time);
    }
  }
  if (tracks.length === 0) throw fail(`no subtitles for video ${q.video_code}`);
  throw fail(`no subtitles in ${q.language} for video ${q.video_code}; available: ${describe(tracks)}`);
}

/** `facet serve subtitles import`: a parsed caption file becomes (or replaces) one track. */
export async function importTrack(
  ctx: Pick<AppContext, 'db' | 'now'>,
  input: { videoCode: string; language: string; kind: 'manual' | 'generated'; title: string; cues: Cue[] },
): Promise<SubtitleTrackRow> {
  await ensureSeeded(ctx);
  const row: SubtitleTrackRow = {
    video_code: input.videoCode,
    language: input.language,
    kind: input.kind,
    title: input.title,
    cues: JSON.stringify(input.cues),
    source: 'import',
    created_at: ctx.now().toISOString(),
  };
  await putTrack(ctx.db, row);
  return row;
}

/** Forgets which stores were seeded (tests that reopen a store in one process). */
export function resetSeedMemo(): void {
  seeded = new WeakSet();
}
