import webvtt from 'node-webvtt';
import SrtParser from 'srt-parser-2';
import { XMLParser } from 'fast-xml-parser';
import { z } from 'zod';

/** One caption: seconds from the start of the video, seconds shown, and its text. */
export interface Cue {
  start: number;
  duration: number;
  text: string;
}

export type CaptionFormat = 'vtt' | 'srt' | 'json3' | 'srv3';

export class CaptionParseError extends Error {
  override name = 'CaptionParseError';
}

/** The format of a caption file, from its name when it says, else from its first bytes. */
export function detectFormat(text: string, fileName = ''): CaptionFormat {
  const ext = fileName.toLowerCase().split('.').pop() ?? '';
  if (ext === 'vtt') return 'vtt';
  if (ext === 'srt') return 'srt';
  if (ext === 'json3' || ext === 'json') return 'json3';
  if (ext === 'srv3' || ext === 'xml') return 'srv3';
  const head = text.replace(/^\uFEFF/, '').trimStart();
  if (head.startsWith('WEBVTT')) return 'vtt';
  if (head.startsWith('{')) return 'json3';
  if (head.startsWith('<')) return 'srv3';
  return 'srt';
}

const round = (n: number) => Math.round(n * 1000) / 1000;
/** Inline markup of captions (<c>, <i>, karaoke timestamps <00:00:01.000>) is not text. */
const plain = (s: string) =>
  s
    .replace(/<[^>]*>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, ' ')
    .replace(/[ \t]+/g, ' ');

function fromVtt(text: string): Cue[] {
  let parsed;
  try {
    parsed = webvtt.parse(text.replace(/^\uFEFF/, ''), { meta: true, strict: false });
  } catch (err) {
    throw new CaptionParseError(`not a WebVTT file: ${(err as Error).message}`);
  }
  return parsed.cues.map((c) => ({ start: c.start, duration: c.end - c.start, text: plain(c.text) }));
}

function fromSrt(text: string): Cue[] {
  const lines = new SrtParser().fromSrt(text.replace(/^\uFEFF/, ''));
  if (lines.length === 0 && text.trim()) throw new CaptionParseError('not an SRT file: no cues found');
  return lines.map((l) => ({ start: l.startSeconds, duration: l.endSeconds - l.startSeconds, text: plain(l.text) }));
}

/** YouTube json3: events with tStartMs, dDurationMs and segs[].utf8; append events carry no text. */
function fromJson3(text: string): Cue[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new CaptionParseError(`not a json3 caption file: ${(err as Error).message}`);
  }
  const events = (raw as { events?: unknown } | null)?.events;
  if (!Array.isArray(events)) throw new CaptionParseError('not a json3 caption file: no "events" array');
  const doc = Json3Events.safeParse(events);
  if (!doc.success) throw new CaptionParseError(`not a json3 caption file: ${z.prettifyError(doc.error)}`);
  return doc.data.flatMap((e) =>
    e.segs
      ? [
          {
            start: (e.tStartMs ?? 0) / 1000,
            duration: (e.dDurationMs ?? 0) / 1000,
            text: e.segs.map((s) => s.utf8 ?? '').join(''),
          },
        ]
      : [],
  );
}

/** The json3 events fromJson3 reads; other fields are ignored. */
const Json3Events = z.array(
  z.object({
    tStartMs: z.number().nullish(),
    dDurationMs: z.number().nullish(),
    segs: z.array(z.object({ utf8: z.string().nullish() })).nullish(),
  }),
);

/** YouTube srv3: <timedtext><body><p t="ms" d="ms">text and <s> segments</p>, read in document order. */
function fromSrv3(text: string): Cue[] {
  // preserveOrder keeps mixed content (text around <s> segments) in the order it was written.
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    preserveOrder: true,
    processEntities: true,
    trimValues: false,
  });
  type Node = Record<string, unknown> & { ':@'?: Record<string, string> };
  let doc: Node[];
  try {
    doc = parser.parse(text) as Node[];
  } catch (err) {
    throw new CaptionParseError(`not an srv3 caption file: ${(err as Error).message}`);
  }
  const child = (nodes: Node[] | undefined, name: string) =>
    (nodes ?? []).find((n) => name in n)?.[name] as Node[] | undefined;
  const body = child(child(doc, 'timedtext'), 'body');
  if (!body) throw new CaptionParseError('not an srv3 caption file: no <timedtext><body>');
  const textOf = (nodes: Node[]): string =>
    nodes
      .map((n) =>
        '#text' in n
          ? String(n['#text'])
          : Object.entries(n)
              .filter(([k]) => k !== ':@')
              .map(([, v]) => textOf(v as Node[]))
              .join(''),
      )
      .join('');
  return body
    .filter((n) => 'p' in n)
    .map((n) => ({
      start: Number(n[':@']?.t ?? 0) / 1000,
      duration: Number(n[':@']?.d ?? 0) / 1000,
      text: textOf(n.p as Node[]),
    }));
}

/**
 * Generated captions scroll: each cue repeats the line(s) shown before it and adds one. Lines equal
 * to the previous cue's are dropped; a cue left with nothing new extends the cue before it.
 */
export function collapseRolling(cues: Cue[]): Cue[] {
  const out: Cue[] = [];
  let previous: string[] = [];
  for (const cue of cues) {
    const lines = cue.text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    let k = 0;
    while (k < lines.length && previous.includes(lines[k])) k++;
    const fresh = lines.slice(k);
    if (lines.length > 0) previous = lines;
    const last = out.at(-1);
    if (fresh.length === 0) {
      if (last) last.duration = round(Math.max(last.duration, cue.start + cue.duration - last.start));
      continue;
    }
    out.push({ start: cue.start, duration: cue.duration, text: fresh.join(' ') });
  }
  return out;
}

/**
 * Cues of a caption file, in time order, with whitespace tidied and empty cues dropped. Generated
 * tracks also get their rolling-window repeats collapsed.
 */
export function parseCaptions(
  text: string,
  options: { fileName?: string; format?: CaptionFormat; generated?: boolean } = {},
): Cue[] {
  const format = options.format ?? detectFormat(text, options.fileName);
  const raw =
    format === 'vtt'
      ? fromVtt(text)
      : format === 'srt'
        ? fromSrt(text)
        : format === 'json3'
          ? fromJson3(text)
          : fromSrv3(text);
  const tidy = raw
    .map((c) => ({
      start: round(c.start),
      duration: round(Math.max(0, c.duration)),
      text: c.text
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)
        .join('\n'),
    }))
    .filter((c) => c.text)
    .sort((a, b) => a.start - b.start);
  const cues = options.generated
    ? collapseRolling(tidy)
    : tidy.map((c) => ({ ...c, text: c.text.replace(/\n/g, ' ') }));
  if (cues.length === 0) throw new CaptionParseError(`no captions in the ${format} file`);
  return cues;
}
