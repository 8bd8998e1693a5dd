/**
 * The words an answer is framed in — its lead-in, connectives and "not covered" — in the language
 * the question is asked in. The facts inside are quoted from the sources as they are written.
 */
export interface AnswerFrame {
  lang: 'en' | 'zh' | 'ja';
  /** Before sentences quoted from the sources. */
  lead: string;
  /** One table cell as a sentence: the row's name, the column's name, the value. */
  cell: (row: string, column: string, value: string) => string;
  /** Said when nothing retrieved answers the question; `topics` are what the sources found are about. */
  notCovered: (topics: string[]) => string;
  /** Said when there are no sources at all. */
  noSources: (question: string) => string;
  /** A compared subject no passage speaks of. */
  nothingOn: (subject: string) => string;
  summary: string;
}

const EN: AnswerFrame = {
  lang: 'en',
  lead: 'According to your sources:',
  // The full stop is the citation's (answer/render.ts cite): a value ending in one keeps only its own.
  cell: (row, column, value) => `For ${row}, ${column}: ${value}`,
  notCovered: (topics) =>
    `Your sources do not cover this question.${topics.length ? ` What they cover is closest to: ${topics.join('; ')}.` : ''}`,
  noSources: (question) =>
    `I found nothing about "${question}" in your LiveDocs: your sources do not cover it. Add pages or documents that cover it, then ask again.`,
  nothingOn: (subject) => `no passage found about ${subject}.`,
  summary: 'In short:',
};

const ZH: AnswerFrame = {
  lang: 'zh',
  lead: '根据你的资料：',
  // The answer's lead opens it already (grounded-writer): the cell says the fact alone.
  cell: (row, column, value) => `${row} 的 ${column} 是 ${value.replace(/[。.]$/, '')}。`,
  notCovered: (topics) =>
    `你的资料没有涉及这个问题。${topics.length ? `资料中最接近的内容是：${topics.join('；')}。` : ''}`,
  noSources: (question) => `你的资料没有涉及这个问题（“${question}”）。请添加相关的网页或文档后再问。`,
  nothingOn: (subject) => `没有找到关于 ${subject} 的内容。`,
  summary: '要点：',
};

const JA: AnswerFrame = {
  lang: 'ja',
  lead: '資料によると：',
  cell: (row, column, value) => `${row} の ${column} は ${value} です。`,
  notCovered: (topics) =>
    `資料はこの質問を扱っていません。${topics.length ? `最も近い内容：${topics.join('、')}。` : ''}`,
  noSources: (question) =>
    `資料はこの質問（「${question}」）を扱っていません。関連するページや文書を追加してから、もう一度質問してください。`,
  nothingOn: (subject) => `${subject} についての記述は見つかりませんでした。`,
  summary: '要点：',
};

const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HAN = /\p{Script=Han}/u;

/** The frame of the question's language: Japanese when it has kana, Chinese when it has Han characters only. */
export function frameOf(question: string): AnswerFrame {
  if (KANA.test(question)) return JA;
  if (HAN.test(question)) return ZH;
  return EN;
}

/** What an answer may open with before its facts, in every language: a page quoting the answer leaves it out. */
export const FRAME_OPENINGS: readonly string[] = [EN, ZH, JA].flatMap((f) => [f.lead, f.summary]);
