import webvtt from 'node-webvtt';
import SrtParser from 'srt-parser-2';

export interface TimedCue {
  start: number;
  duration: number;
  text: string;
}

/** 3723.5 → 01:02:03,500 (SRT) or 01:02:03.500 (WebVTT). */
function clock(seconds: number, sep: ',' | '.'): string {
  const ms = Math.round(seconds * 1000);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(Math.floor(ms / 3_600_000))}:${p(Math.floor(ms / 60_000) % 60)}:${p(Math.floor(ms / 1000) % 60)}${sep}${p(ms % 1000, 3)}`;
}

/** SRT with Unix line ends (the library writes CRLF), like the other formats the CLI prints. */
export function toSrt(cues: TimedCue[]): string {
  const srt = new SrtParser().toSrt(
    cues.map((c, i) => ({
      id: String(i + 1),
      startTime: clock(c.start, ','),
      startSeconds: c.start,
      endTime: clock(c.start + c.duration, ','),
      endSeconds: c.start + c.duration,
      text: c.text,
    })),
  );
  return srt.replace(/\r\n/g, '\n');
}

export function toVtt(cues: TimedCue[]): string {
  return (
    webvtt.compile({
      valid: true,
      cues: cues.map((c, i) => ({
        identifier: String(i + 1),
        start: c.start,
        end: c.start + c.duration,
        text: c.text,
        styles: '',
      })),
    }) + '\n'
  );
}

/** Plain text: one cue per line, with its start as [m:ss] when times were asked for. */
export function toText(cues: Array<{ start?: number; text: string }>): string {
  return (
    cues
      .map(
        (c) =>
          (c.start !== undefined
            ? `[${Math.floor(c.start / 60)}:${String(Math.floor(c.start % 60)).padStart(2, '0')}] `
            : '') + c.text,
      )
      .join('\n') + '\n'
  );
}
