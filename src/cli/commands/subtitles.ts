import { Option, type Command } from 'commander';
import type { Deps } from '../deps.js';
import { CliError, EXIT, usageError } from '../exit-codes.js';
import { toSrt, toText, toVtt, type TimedCue } from '../render/subtitles.js';

interface SubtitlesOptions {
  language?: string;
  withTime?: boolean;
  format: 'text' | 'srt' | 'vtt' | 'json';
}

const FORMATS = ['text', 'srt', 'vtt', 'json'] as const;

/**
 * The spec answers "no such video or no subtitles" with 400 YOUTUBE_SUBTITLING_FAILED, as it does a
 * bad request; the message tells them apart, and a person's script wants not found's exit code (4).
 */
function notFoundOf(err: unknown): CliError | undefined {
  const e = err as { name?: string; status?: number; code?: string; message?: string; requestId?: string };
  if (e?.name !== 'ApiError' || e.status !== 400 || e.code !== 'YOUTUBE_SUBTITLING_FAILED') return undefined;
  if (!/\bno (subtitles|captions|transcripts?)\b|\bnot (found|available)\b|\bunavailable\b/i.test(e.message ?? ''))
    return undefined;
  return new CliError(
    `${e.message} (code ${e.code}, HTTP 400${e.requestId ? `, request id ${e.requestId}` : ''})`,
    EXIT.notFound,
  );
}

export async function run(videoCode: string, opts: SubtitlesOptions, deps: Deps): Promise<void> {
  const api = await deps.api('subtitles');
  const io = deps.io();
  // SRT and WebVTT need the times whether or not they are shown otherwise.
  const timed = opts.withTime || opts.format === 'srt' || opts.format === 'vtt';
  const data = await api.subtitles
    .get({ video_code: videoCode, language: opts.language, with_time: timed })
    .catch((err: unknown) => {
      throw notFoundOf(err) ?? err;
    });
  if (io.json || opts.format === 'json') return io.printJson(data);
  io.info(`${data.title}${data.language ? ` — ${data.language}${data.kind ? ` (${data.kind})` : ''}` : ''}`);
  const cues = data.contents as TimedCue[];
  if (opts.format === 'srt') io.write(toSrt(cues));
  else if (opts.format === 'vtt') io.write(toVtt(cues));
  else io.write(toText(data.contents));
}

export function register(program: Command, deps: Deps): void {
  program
    .command('subtitles')
    .argument('<video_code>', 'the video id (11 characters)')
    .description("Print a video's existing subtitles as text, SRT, WebVTT or JSON")
    .option('--language <tag>', 'language tag such as en or zh-CN (default: the available one; zh-CN falls back to zh)')
    .option('--with-time', 'include start and duration (text shows [m:ss]; srt and vtt always have them)')
    .addOption(
      new Option('--format <format>', 'text, srt, vtt or json')
        .choices(FORMATS)
        .argParser((v: string) => {
          if (!FORMATS.includes(v as (typeof FORMATS)[number]))
            throw usageError(`--format must be one of ${FORMATS.join(', ')} (got ${JSON.stringify(v)})`);
          return v;
        })
        .default('text'),
    )
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet subtitles facetDemo01\n  $ facet subtitles facetDemo01 --language de --format srt > talk.de.srt\n  $ facet subtitles facetDemo02 --language zh-CN --with-time --json',
    )
    .action((code: string, opts: SubtitlesOptions) => run(code, opts, deps));
}
