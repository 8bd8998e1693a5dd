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
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu;
/** A word in Latin letters, with the digits and marks a name joins (chinese-s2t, kanji2number) as one. */
const LATIN_WORD = /\p{Script=Latin}[\p{Script=Latin}\p{N}_./-]*/gu;
/** Text the question quotes (`isChinese('中国ss')`) is the sources', not the asker's language. */
const QUOTED = /(['"`‘“])[^'"`’”]*?(?:\1|[’”])/g;
/** Characters of Chinese or Japanese per word, about: a question's language is that of most of its words. */
const CJK_CHARS_PER_WORD = 1.5;

/**
 * The frame of the question's language: that of most of its words outside quotes ("Can
 * kanji2number handle the kanji zero 〇?" is English), Japanese when they have kana.
 */
export function frameOf(question: string): AnswerFrame {
  const unquoted = question.replace(QUOTED, ' ');
  const own = /\p{L}/u.test(unquoted) ? unquoted : question;
  const cjk = (own.match(CJK) ?? []).length / CJK_CHARS_PER_WORD;
  const latin = (own.match(LATIN_WORD) ?? []).length;
  // As many of each: the language the question opens in ("Why is 一二三四五六 an error?").
  if (cjk === 0 || cjk < latin || (cjk === latin && /^\W*\p{Script=Latin}/u.test(own))) return EN;
  return KANA.test(own) ? JA : ZH;
}

/** What an answer may open with before its facts, in every language: a page quoting the answer leaves it out. */
export const FRAME_OPENINGS: readonly string[] = [EN, ZH, JA].flatMap((f) => [f.lead, f.summary]);
