import type { Cue } from '../../engines/subtitles/parse.js';

export interface SeedTrack {
  videoCode: string;
  language: string;
  kind: 'manual' | 'generated';
  title: string;
  cues: Cue[];
}

const cues = (lines: string[], step = 3.5): Cue[] =>
  lines.map((text, i) => ({ start: Math.round(i * step * 1000) / 1000, duration: step, text }));

/**
 * The subtitles a fresh local platform answers with (docs/decisions.md lists them): made-up videos
 * whose tracks show the language rules — manual and generated tracks of one language, a second
 * language, a base-language-only track (zh for zh-CN), and a video with generated captions only.
 */
export const SEED_TRACKS: SeedTrack[] = [
  {
    videoCode: 'facetDemo01',
    language: 'en',
    kind: 'manual',
    title: 'Building a lighthouse (demo)',
    cues: cues([
      'Welcome to the harbour.',
      'Today we build a small lighthouse.',
      'First, the foundation of stone.',
      'Then the tower, ring by ring.',
      'Finally, the lamp that guides the boats home.',
    ]),
  },
  {
    videoCode: 'facetDemo01',
    language: 'en',
    kind: 'generated',
    title: 'Building a lighthouse (demo)',
    cues: cues([
      'welcome to the harbor',
      'today we build a small lighthouse',
      'first the foundation of stone',
      'then the tower ring by ring',
      'finally the lamp that guides the boats home',
    ]),
  },
  {
    videoCode: 'facetDemo01',
    language: 'de',
    kind: 'manual',
    title: 'Building a lighthouse (demo)',
    cues: cues([
      'Willkommen im Hafen.',
      'Heute bauen wir einen kleinen Leuchtturm.',
      'Zuerst das Fundament aus Stein.',
      'Dann der Turm, Ring für Ring.',
      'Zum Schluss die Lampe, die die Boote heimführt.',
    ]),
  },
  {
    videoCode: 'facetDemo02',
    language: 'zh',
    kind: 'manual',
    title: '港口的早晨 (demo)',
    cues: cues(['早上好，欢迎来到港口。', '渔船正在出海。', '灯塔在晨雾中闪烁。']),
  },
  {
    videoCode: 'facetDemo03',
    language: 'en',
    kind: 'generated',
    title: 'Tides explained (demo)',
    cues: cues(['the tide rises twice a day', 'because the moon pulls the water', 'and the sun helps a little too']),
  },
];
