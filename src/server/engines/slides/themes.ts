import type { FontFamily } from './fonts.js';

/** Localized strings of a theme (spec 2.6: title, subtitle, description are localized). */
export interface Localized {
  en: string;
  'zh-Hans': string;
}

/** Colours as 6-digit hex without '#', as DrawingML writes them. */
export interface Palette {
  background: string;
  /** Cards, bands and the chart area. */
  surface: string;
  text: string;
  muted: string;
  accent: string;
  accent2: string;
  /** Text drawn on the accent colour (title bands). */
  onAccent: string;
  /** Series colours of charts. */
  chart: string[];
}

/** How the slide background is composed. */
export type BackgroundStyle = 'solid' | 'band-left' | 'band-top' | 'frame' | 'split';
/** Where the title slide puts its text. */
export type TitleLayout = 'centered' | 'left' | 'band';
/** How points of a content slide are set off. */
export type BulletStyle = 'dot' | 'bar' | 'card';

/** A theme is data: the writer reads nothing else (docs/decisions.md "Slide decks"). */
export interface ThemeSpec {
  id: string;
  title: Localized;
  subtitle: Localized;
  description: Localized;
  palette: Palette;
  fonts: { heading: FontFamily; body: FontFamily };
  background: BackgroundStyle;
  titleLayout: TitleLayout;
  bulletStyle: BulletStyle;
}

const L = (en: string, zh: string): Localized => ({ en, 'zh-Hans': zh });

export const DEFAULT_THEMES: readonly ThemeSpec[] = [
  {
    id: 'classic-blue',
    title: L('Classic Blue', '经典蓝'),
    subtitle: L('Calm and corporate', '沉稳商务'),
    description: L(
      'White slides, a deep blue band behind titles, Lato throughout.',
      '白色页面，标题下方深蓝色条带，全篇使用 Lato 字体。',
    ),
    palette: {
      background: 'FFFFFF',
      surface: 'EEF3FA',
      text: '1C2833',
      muted: '5D6D7E',
      accent: '1F4E79',
      accent2: '2E86C1',
      onAccent: 'FFFFFF',
      chart: ['1F4E79', '2E86C1', '85C1E9', 'F5B041'],
    },
    fonts: { heading: 'Lato', body: 'Lato' },
    background: 'band-top',
    titleLayout: 'band',
    bulletStyle: 'dot',
  },
  {
    id: 'midnight',
    title: L('Midnight', '午夜'),
    subtitle: L('Dark, high contrast', '深色高对比'),
    description: L(
      'Near-black slides with bright cyan accents, for screens in dim rooms.',
      '近黑色背景配亮青色强调，适合暗室投屏。',
    ),
    palette: {
      background: '111827',
      surface: '1F2937',
      text: 'F3F4F6',
      muted: 'B6BDC8',
      accent: '22D3EE',
      accent2: 'A78BFA',
      onAccent: '0B1220',
      chart: ['22D3EE', 'A78BFA', 'F472B6', 'FBBF24'],
    },
    fonts: { heading: 'Open Sans', body: 'Open Sans' },
    background: 'solid',
    titleLayout: 'left',
    bulletStyle: 'bar',
  },
  {
    id: 'paper',
    title: L('Paper', '纸张'),
    subtitle: L('Editorial serif', '杂志衬线'),
    description: L(
      'Warm off-white paper, Caladea headings and Carlito text, like a printed report.',
      '暖白纸张质感，Caladea 标题与 Carlito 正文，如同印刷报告。',
    ),
    palette: {
      background: 'FBF7EF',
      surface: 'F1E9DA',
      text: '2B2620',
      muted: '6B6155',
      accent: '9C3D2E',
      accent2: 'C9863A',
      onAccent: 'FFFFFF',
      chart: ['9C3D2E', 'C9863A', '6B8E6B', '4A6C8C'],
    },
    fonts: { heading: 'Caladea', body: 'Carlito' },
    background: 'frame',
    titleLayout: 'centered',
    bulletStyle: 'dot',
  },
  {
    id: 'forest',
    title: L('Forest', '森林'),
    subtitle: L('Green and natural', '自然绿意'),
    description: L(
      'Deep green side band, soft sage cards, for sustainability and field reports.',
      '深绿色侧边条与浅绿卡片，适合可持续发展与实地报告。',
    ),
    palette: {
      background: 'FFFFFF',
      surface: 'EAF2EA',
      text: '1E2B22',
      muted: '55655A',
      accent: '2E6B3F',
      accent2: '8DB255',
      onAccent: 'FFFFFF',
      chart: ['2E6B3F', '8DB255', 'D9A441', '5B8BA0'],
    },
    fonts: { heading: 'Open Sans', body: 'Lato' },
    background: 'band-left',
    titleLayout: 'left',
    bulletStyle: 'card',
  },
  {
    id: 'sunrise',
    title: L('Sunrise', '日出'),
    subtitle: L('Warm and energetic', '温暖活力'),
    description: L(
      'Coral and amber on cream, for launches, pitches and kick-offs.',
      '奶油底色配珊瑚与琥珀色，适合发布会、路演与启动会。',
    ),
    palette: {
      background: 'FFF8F0',
      surface: 'FFE9D6',
      text: '3A2418',
      muted: '7A5A48',
      accent: 'E4572E',
      accent2: 'F3A712',
      onAccent: 'FFFFFF',
      chart: ['E4572E', 'F3A712', '29335C', '669BBC'],
    },
    fonts: { heading: 'Lato', body: 'Open Sans' },
    background: 'split',
    titleLayout: 'band',
    bulletStyle: 'bar',
  },
  {
    id: 'slate',
    title: L('Slate', '石板'),
    subtitle: L('Neutral grey, orange accent', '中性灰配橙色'),
    description: L(
      'Light grey slides with a single orange accent, for engineering reviews.',
      '浅灰页面与单一橙色强调，适合工程评审。',
    ),
    palette: {
      background: 'F4F5F7',
      surface: 'E3E6EB',
      text: '22272E',
      muted: '59616D',
      accent: 'D9480F',
      accent2: '495057',
      onAccent: 'FFFFFF',
      chart: ['D9480F', '495057', '868E96', 'FAB005'],
    },
    fonts: { heading: 'Liberation Sans', body: 'Liberation Sans' },
    background: 'solid',
    titleLayout: 'left',
    bulletStyle: 'bar',
  },
  {
    id: 'academic',
    title: L('Academic', '学术'),
    subtitle: L('Serif, navy and burgundy', '衬线、藏青与酒红'),
    description: L(
      'Liberation Serif on white with navy rules, for lectures and papers.',
      '白底 Liberation Serif 字体配藏青线条，适合讲座与论文。',
    ),
    palette: {
      background: 'FFFFFF',
      surface: 'F2F4F8',
      text: '1A1A2E',
      muted: '4F5468',
      accent: '1B2A4A',
      accent2: '7B2D26',
      onAccent: 'FFFFFF',
      chart: ['1B2A4A', '7B2D26', '8A9BB8', 'C7A35A'],
    },
    fonts: { heading: 'Liberation Serif', body: 'Liberation Serif' },
    background: 'frame',
    titleLayout: 'centered',
    bulletStyle: 'dot',
  },
  {
    id: 'ocean',
    title: L('Ocean', '海洋'),
    subtitle: L('Teal and sand', '青绿与沙色'),
    description: L(
      'Teal title band over light sand, for travel, research and education.',
      '浅沙色底与青绿标题条，适合旅行、研究与教育主题。',
    ),
    palette: {
      background: 'FAFAF5',
      surface: 'E6F2F2',
      text: '143434',
      muted: '4E6B6B',
      accent: '0F766E',
      accent2: 'D4A373',
      onAccent: 'FFFFFF',
      chart: ['0F766E', 'D4A373', '14B8A6', '64748B'],
    },
    fonts: { heading: 'Carlito', body: 'Carlito' },
    background: 'band-top',
    titleLayout: 'band',
    bulletStyle: 'card',
  },
  {
    id: 'plum',
    title: L('Plum', '梅紫'),
    subtitle: L('Rich purple', '浓郁紫色'),
    description: L(
      'A plum side band and lavender cards, for strategy and culture decks.',
      '梅紫色侧边条与淡紫卡片，适合战略与文化主题。',
    ),
    palette: {
      background: 'FFFFFF',
      surface: 'F3ECF7',
      text: '2A1B33',
      muted: '645470',
      accent: '6A2C70',
      accent2: 'F08A5D',
      onAccent: 'FFFFFF',
      chart: ['6A2C70', 'F08A5D', 'B83B5E', 'F9ED69'],
    },
    fonts: { heading: 'Lato', body: 'Lato' },
    background: 'band-left',
    titleLayout: 'left',
    bulletStyle: 'dot',
  },
  {
    id: 'graphite',
    title: L('Graphite', '石墨'),
    subtitle: L('Dark with lime', '深色配青柠'),
    description: L(
      'Charcoal slides with a lime accent and DejaVu Sans, for technical talks.',
      '炭灰背景配青柠色强调与 DejaVu Sans，适合技术演讲。',
    ),
    palette: {
      background: '23272E',
      surface: '2F353E',
      text: 'EDEFF2',
      muted: 'B9C0CA',
      accent: 'A3E635',
      accent2: '38BDF8',
      onAccent: '1A1D22',
      chart: ['A3E635', '38BDF8', 'F59E0B', 'F87171'],
    },
    fonts: { heading: 'DejaVu Sans', body: 'DejaVu Sans' },
    background: 'solid',
    titleLayout: 'centered',
    bulletStyle: 'bar',
  },
  {
    id: 'mint',
    title: L('Mint', '薄荷'),
    subtitle: L('Fresh and light', '清新明快'),
    description: L(
      'Mint and white with a navy text colour, for product updates.',
      '薄荷绿与白色搭配藏青文字，适合产品更新。',
    ),
    palette: {
      background: 'FFFFFF',
      surface: 'E3F6EF',
      text: '1D2B3A',
      muted: '52606D',
      accent: '12A37F',
      accent2: '1D4E89',
      onAccent: 'FFFFFF',
      chart: ['12A37F', '1D4E89', '7FD8BE', 'F4A259'],
    },
    fonts: { heading: 'Open Sans', body: 'Open Sans' },
    background: 'split',
    titleLayout: 'left',
    bulletStyle: 'card',
  },
  {
    id: 'ink',
    title: L('Ink', '墨色'),
    subtitle: L('Black and white, red accent', '黑白配朱红'),
    description: L(
      'Stark black on white with a vermilion accent, for keynotes that let the words speak.',
      '白底黑字配朱红强调，适合以文字为主的主题演讲。',
    ),
    palette: {
      background: 'FFFFFF',
      surface: 'F2F2F2',
      text: '111111',
      muted: '555555',
      accent: 'D62828',
      accent2: '111111',
      onAccent: 'FFFFFF',
      chart: ['D62828', '111111', '888888', 'F77F00'],
    },
    fonts: { heading: 'DejaVu Serif', body: 'DejaVu Sans' },
    background: 'solid',
    titleLayout: 'centered',
    bulletStyle: 'dot',
  },
  {
    id: 'lantern',
    title: L('Lantern', '灯笼'),
    subtitle: L('Red and gold, CJK ready', '红金配色，适配中文'),
    description: L(
      'Festive red band and gold accents set in WenQuanYi Micro Hei, for Chinese decks.',
      '喜庆红色条带与金色点缀，使用文泉驿微米黑，适合中文演示。',
    ),
    palette: {
      background: 'FFFBF5',
      surface: 'FBEADB',
      text: '2B1A12',
      muted: '6E5446',
      accent: 'B91C1C',
      accent2: 'C99A2E',
      onAccent: 'FFFFFF',
      chart: ['B91C1C', 'C99A2E', '7C2D12', '5B6B7A'],
    },
    fonts: { heading: 'WenQuanYi Micro Hei', body: 'WenQuanYi Micro Hei' },
    background: 'band-top',
    titleLayout: 'band',
    bulletStyle: 'bar',
  },
];

export const DEFAULT_THEME_ID = 'classic-blue';

export function defaultTheme(id: string): ThemeSpec | undefined {
  return DEFAULT_THEMES.find((t) => t.id === id);
}
