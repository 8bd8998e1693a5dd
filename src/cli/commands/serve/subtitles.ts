import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Option, type Command } from 'commander';
import type { Deps } from '../../deps.js';
import { CliError, usageError } from '../../exit-codes.js';
import { dataDirOf, dataDirOption } from './offline.js';
import { withStore } from './offline.js';

interface ImportOptions {
  language?: string;
  title?: string;
  kind: 'manual' | 'generated';
  format?: 'vtt' | 'srt' | 'json3' | 'srv3';
}

export function register(serve: Command, deps: Deps): void {
  const subtitles = serve
    .command('subtitles')
    .description("The local platform's subtitle store (offline, on its data dir)");
  dataDirOption(
    subtitles
      .command('import')
      .argument('<video_code>', 'the video id (11 characters)')
      .argument('<file>', 'a WebVTT, SRT, or YouTube json3/srv3 caption file')
      .description('Add (or replace) one subtitle track of a video from a caption file')
      .option('--language <tag>', "the track's language (default: the file's Language header, else en)")
      .option('--title <title>', "the video's title (default: the file name)")
      .addOption(
        new Option('--kind <kind>', 'manual, or generated (rolling repeats are collapsed)')
          .choices(['manual', 'generated'])
          .default('manual'),
      )
      .addOption(
        new Option('--format <format>', 'the file format (default: from the name or content)').choices([
          'vtt',
          'srt',
          'json3',
          'srv3',
        ]),
      ),
  ).action(async (videoCode: string, file: string, opts: ImportOptions, cmd: Command) => {
    const [{ VideoCode, LanguageTag }, { parseCaptions, CaptionParseError }, service] = await Promise.all([
      import('../../../contract/subtitles.js'),
      import('../../../server/engines/subtitles/parse.js'),
      import('../../../server/services/subtitles.service.js'),
    ]);
    if (!VideoCode.safeParse(videoCode).success)
      throw usageError(`not a video id: ${JSON.stringify(videoCode)} (11 characters of letters, digits, _ and -)`);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      throw new CliError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    const language = opts.language ?? /^Language:\s*(\S+)/m.exec(text.slice(0, 500))?.[1] ?? 'en';
    if (!LanguageTag.safeParse(language).success)
      throw usageError(`not a language tag: ${JSON.stringify(language)} (for example en or zh-CN)`);
    let cues;
    try {
      cues = parseCaptions(text, { fileName: file, format: opts.format, generated: opts.kind === 'generated' });
    } catch (err) {
      if (err instanceof CaptionParseError) throw new CliError(`${file}: ${err.message}`);
      throw err;
    }
    const title = opts.title ?? path.basename(file).replace(/\.[^.]+$/, '');
    const row = await withStore(dataDirOf(cmd), (ctx) =>
      service.importTrack(ctx, { videoCode, language, kind: opts.kind, title, cues }),
    );
    const io = deps.io();
    const out = {
      video_code: row.video_code,
      language: row.language,
      kind: row.kind,
      title: row.title,
      cues: cues.length,
    };
    io.print(out, () =>
      io.success(`imported ${cues.length} cues for ${row.video_code} (${row.language}, ${row.kind})`),
    );
  });
}
