import { z } from 'zod';
import { defineRoute } from './route.js';
import { V2ErrorBody } from './errors.js';
import { v2Envelope } from './envelopes.js';

/** A YouTube video id: 11 characters of A-Z a-z 0-9 _ - (docs/decisions.md). */
export const VideoCode = z
  .string()
  .regex(/^[A-Za-z0-9_-]{11}$/, 'must be a video id: 11 characters of letters, digits, _ and -');
/** A BCP 47 style language tag: en, de, zh-CN, zh-Hant, pt-BR. */
export const LanguageTag = z
  .string()
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language tag such as en or zh-CN');
/** A query boolean: true/false or 1/0; anything else is refused rather than guessed. */
const QueryBool = z.preprocess(
  (v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v),
  z.boolean(),
);

export const SubtitlesQuery = z.object({
  video_code: VideoCode,
  language: LanguageTag.optional(),
  with_time: QueryBool.default(false),
});

export const Cue = z.object({ start: z.number().optional(), duration: z.number().optional(), text: z.string() });

/** Spec 2.9, plus the track's language and kind (local additions, may be absent upstream). */
export const SubtitlesData = z.object({
  title: z.string(),
  contents: z.array(Cue),
  language: z.string().optional(),
  kind: z.enum(['manual', 'generated']).optional(),
});
export type SubtitlesData = z.infer<typeof SubtitlesData>;

const errors = { 400: V2ErrorBody, 401: V2ErrorBody, 403: V2ErrorBody, 500: V2ErrorBody, 502: V2ErrorBody } as const;

export const getSubtitles = defineRoute({
  id: 'youtube.subtitling',
  method: 'GET',
  path: '/v2/youtube/subtitling',
  auth: 'bearer-key',
  family: 'v2',
  tag: 'subtitles',
  summary: "A video's existing subtitles (no audio or video is downloaded)",
  query: SubtitlesQuery,
  validationCode: 'YOUTUBE_SUBTITLING_FAILED',
  responses: { 200: v2Envelope(SubtitlesData), ...errors },
});

export const subtitleRoutes = [getSubtitles];
