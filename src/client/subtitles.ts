import { getSubtitles } from '../contract/subtitles.js';
import { callRoute } from './call.js';
import type { Transport } from './transport.js';

export const subtitlesClient = (t: Transport) => ({
  /** GET /v2/youtube/subtitling. */
  get: (query: { video_code: string; language?: string; with_time?: boolean }) =>
    callRoute(t, getSubtitles, { query: { ...query, with_time: query.with_time ? 'true' : 'false' } }),
});
