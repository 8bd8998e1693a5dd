import { z } from 'zod';
import type { Cue } from '../../engines/subtitles/parse.js';
import { OutboundFetchError } from '../../net/errors.js';
import type { FetchPolicy } from '../../net/policy.js';
import { fetchUpstream } from '../upstream-fetch.js';
import { UpstreamError, type UpstreamConfig } from '../upstream-http.js';

export interface UpstreamTrack {
  title: string;
  cues: Cue[];
  language?: string;
  kind?: 'manual' | 'generated';
}

export interface SubtitleUpstream {
  /** The upstream's subtitles, null when it has none for the video or language; UpstreamError when it fails. */
  fetch(videoCode: string, language?: string): Promise<UpstreamTrack | null>;
}

/**
 * A platform speaking this same API (GET /v2/youtube/subtitling) at a configured base URL with a
 * key. Its answer is passed through (with_time asked, so the store can answer both ways later). A
 * YOUTUBE_SUBTITLING_FAILED 400 means "none there"; any other failure is the upstream's (502). The
 * answer is read through the outbound fetch (upstream-fetch.ts): capped, with one time limit.
 */
export function subtitleUpstream(config: UpstreamConfig, policy: FetchPolicy): SubtitleUpstream {
  return {
    async fetch(videoCode, language) {
      const url = new URL(config.baseUrl.replace(/\/+$/, '') + '/v2/youtube/subtitling');
      url.searchParams.set('video_code', videoCode);
      if (language) url.searchParams.set('language', language);
      url.searchParams.set('with_time', 'true');
      let res;
      try {
        res = await fetchUpstream(policy, config.baseUrl, url, {
          headers: {
            accept: 'application/json',
            ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
          },
          timeoutMs: config.timeoutMs ?? 30_000,
        });
      } catch (err) {
        if (!(err instanceof OutboundFetchError)) throw err;
        const status = err.kind === 'timeout' ? -1 : err.kind === 'too-large' ? 502 : 0;
        throw new UpstreamError(status, err.message);
      }
      const text = res.body.toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new UpstreamError(
          res.status,
          `${config.baseUrl} answered HTTP ${res.status} with a body that is not JSON`,
        );
      }
      const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
      if (res.status === 400 && fields.code === 'YOUTUBE_SUBTITLING_FAILED') return null;
      if (res.status !== 200)
        throw new UpstreamError(
          res.status,
          `${config.baseUrl} answered HTTP ${res.status}: ${typeof fields.message === 'string' ? fields.message : text.slice(0, 200)}`,
        );
      const parsed = SubtitleData.safeParse(fields.data);
      if (!parsed.success)
        throw new UpstreamError(502, `${config.baseUrl} answered without data.title and data.contents`);
      const data = parsed.data;
      return {
        title: data.title,
        cues: data.contents.map((c) => ({
          start: Number(c.start ?? 0),
          duration: Number(c.duration ?? 0),
          text: c.text ?? '',
        })),
        language: typeof data.language === 'string' ? data.language : language,
        kind: data.kind === 'generated' ? 'generated' : 'manual',
      };
    },
  };
}

/** The answer's data as read: a cue's times may come as numbers or as numbers in text. */
const Seconds = z.union([z.number(), z.string()]).nullish();
const SubtitleData = z.object({
  title: z.string(),
  contents: z.array(z.object({ start: Seconds, duration: Seconds, text: z.string().nullish() })),
  language: z.unknown().optional(),
  kind: z.unknown().optional(),
});
