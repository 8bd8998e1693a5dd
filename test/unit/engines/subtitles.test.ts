import { describe, expect, it } from 'vitest';
import { chooseTrack } from '../../../src/server/services/subtitles.service.js';
import {
  CaptionParseError,
  collapseRolling,
  detectFormat,
  parseCaptions,
} from '../../../src/server/engines/subtitles/parse.js';

const t = (language: string, kind: 'manual' | 'generated') => ({ language, kind });

describe('subtitle language choice (youtube-transcript-api order)', () => {
  const tracks = [
    t('en', 'generated'),
    t('de', 'manual'),
    t('en', 'manual'),
    t('zh', 'generated'),
    t('zh-CN', 'generated'),
  ];
  it('manual before generated for the exact tag, then the base language', () => {
    expect(chooseTrack(tracks, 'en')).toEqual(t('en', 'manual'));
    expect(chooseTrack(tracks, 'EN-gb')).toEqual(t('en', 'manual'));
    expect(chooseTrack(tracks, 'zh-CN')).toEqual(t('zh-CN', 'generated'));
    expect(chooseTrack(tracks, 'zh-TW')).toEqual(t('zh', 'generated'));
    expect(chooseTrack(tracks, 'fr')).toBeUndefined();
  });
  it('without a language: the first manual track, else the first', () => {
    expect(chooseTrack(tracks)).toEqual(t('de', 'manual'));
    expect(chooseTrack([t('ja', 'generated')])).toEqual(t('ja', 'generated'));
    expect(chooseTrack([])).toBeUndefined();
  });
});

describe('caption parsing', () => {
  it('detects formats by name, then by content', () => {
    expect(detectFormat('', 'a.srt')).toBe('srt');
    expect(detectFormat('WEBVTT\n')).toBe('vtt');
    expect(detectFormat('{"events":[]}')).toBe('json3');
    expect(detectFormat('<timedtext/>')).toBe('srv3');
  });
  it('collapses the rolling window of generated captions', () => {
    expect(
      collapseRolling([
        { start: 0, duration: 1, text: 'a b' },
        { start: 1, duration: 1, text: 'a b\nc d' },
        { start: 2, duration: 1, text: 'c d' },
        { start: 3, duration: 1, text: 'c d\ne f' },
      ]),
    ).toEqual([
      { start: 0, duration: 1, text: 'a b' },
      { start: 1, duration: 2, text: 'c d' },
      { start: 3, duration: 1, text: 'e f' },
    ]);
  });
  it('drops markup and empty cues; a file without cues is an error', () => {
    expect(
      parseCaptions('1\n00:00:01,000 --> 00:00:02,000\n<i>Hello</i>\n\n2\n00:00:02,000 --> 00:00:03,000\n \n'),
    ).toEqual([{ start: 1, duration: 1, text: 'Hello' }]);
    expect(() => parseCaptions('WEBVTT\n\n')).toThrow(/no captions/);
  });
  it('reads json3 events with text segments; an event that is not one is a parse error, not a crash', () => {
    const json3 = (events: unknown) => JSON.stringify({ events });
    expect(
      parseCaptions(
        json3([
          { tStartMs: 1000, dDurationMs: 1500, segs: [{ utf8: 'Hello ' }, { utf8: 'there' }] },
          { tStartMs: 2500, aAppend: 1 },
        ]),
      ),
    ).toEqual([{ start: 1, duration: 1.5, text: 'Hello there' }]);
    expect(() => parseCaptions(json3([null]), { format: 'json3' })).toThrow(CaptionParseError);
    expect(() => parseCaptions(json3([{ tStartMs: 'soon', segs: [] }]), { format: 'json3' })).toThrow(
      /not a json3 caption file/,
    );
    expect(() => parseCaptions('{"events": 3}', { format: 'json3' })).toThrow(/no "events" array/);
  });
});
