import { stemmer } from 'stemmer';
import { isSpaceless, words } from './segment.js';
import { infinitiveOf } from './verbs.js';
import { oneSpelling, spellings } from './spelling.js';
import { isEnglishWord } from './english-frequency.js';

/**
 * The search terms of a text, as the answer model matches them: stemmed words ("releases" →
 * "releas"; an irregular verb's past by its infinitive: "wrote" → "write"), the parts of identifiers in camel case, symbols as written (`**`, `-r`,
 * `--with-editline`, `.makeRe`, `uuid.parse()`, `^0.2.3`, `%j`, `DEBUG=*`), and in scripts written
 * without spaces the segmenter's words (not Japanese grammar words) and, for words of three
 * characters or more, their pairs of Han characters (so 准确率 finds 准确 however either text was
 * segmented). Each term once, in order.
 */
export function termsOf(text: string): string[] {
  const out = new Set<string>();
  for (const s of symbolsOf(text)) out.add(s);
  for (const w of wordTerms(text)) {
    out.add(w);
    // A name with its version run on ("IE9", "ES6") names that version of it: "which IE" asks for it.
    const named = versionedName(w);
    if (named) out.add(named);
  }
  // A program's exit code is its exit status: man pages say either under either heading.
  if (EXIT.test(text)) for (const w of ['exit', 'code', 'statu']) out.add(w);
  // "Don't" says "not": "Why does stdbuf not affect dd?" is answered by "filters… don't use streams".
  if (CONTRACTED_NOT.test(text)) out.add('not');
  // An abbreviation holds the words it stands for, and those words the abbreviation.
  for (const [written, said] of ABBREVIATIONS) if (written.test(text)) for (const w of wordTerms(said)) out.add(w);
  // A letter in quotes is a value a setting takes ("If MODE is 'L'"), though a letter alone is no word.
  for (const m of text.matchAll(QUOTED_LETTER)) out.add(`§'${m[1].toLowerCase()}'`);
  // A mark written as a token of its own (`"/"`, `` `,` ``) is what a question names it by ("a trailing slash").
  for (const m of text.matchAll(LONE_MARK)) for (const w of wordTerms(MARK_NAMES[m[2] ?? m[3]])) out.add(w);
  return [...out];
}

/**
 * What a text says by "un-" (unaffected, unbuffered, unsupported): the participle's word and "not",
 * so "… are thus unaffected by 'stdbuf'" answers "Why does stdbuf not affect dd?"; and by "not" what
 * a prefix says ("is not valid" answers "an invalid color"). A source's terms only: a question
 * asking about "uninitialised values" asks about them, not about "initialised".
 */
export function negatedTerms(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(UN_PARTICIPLE))
    if (isEnglishWord(m[1].toLowerCase())) out.push(...wordTerms(m[1]), 'not');
  // And the other way: "is not valid" says "invalid", "not available" "unavailable".
  for (const m of text.matchAll(NOT_WORD))
    for (const prefix of NEGATING_PREFIXES) {
      const word = `${prefix}${m[1].toLowerCase()}`;
      if (isEnglishWord(word)) out.push(...wordTerms(word));
    }
  return out;
}

const UN_PARTICIPLE = /\bun(\p{L}{3,}(?:ed|able))\b/giu;
const NOT_WORD = /\b(?:not|isn['’]t|aren['’]t)\s+(\p{L}{3,})\b/giu;
const NEGATING_PREFIXES = ['in', 'un', 'im', 'il', 'ir', 'non'];

/**
 * The letters a question names standing alone ("the H special character", "the sed command d"): a
 * value, as a letter in quotes is. Not a source's: "the X and Y resolution" names axes. "A" and "I"
 * are words, and a letter before a full stop an initial.
 */
export const namedLetters = (question: string) => [...question.matchAll(LONE_LETTER)].map((m) => `§'${m[1]}'`);
const LONE_LETTER = /(?<=^|[\s(])([B-HJ-Zb-hj-z])(?=$|[\s,;:)?!])/gu;

/**
 * A name that is one letter (a table's row `L`, a term `H`): the letter as a value, as the question
 * names it, in its case: sed's `d` and `D` are two commands.
 */
export const letterName = (name: string) => {
  const m = /^[`'"]?(\p{L})[`'"]?$/u.exec(name.trim());
  return m ? [`§'${m[1]}'`] : [];
};

/** The name of a word naming a version of it ("ie" of "ie9"), if it is one. */
export const versionedName = (word: string) => /^(\p{L}{2,})\d{1,2}$/u.exec(word.toLowerCase())?.[1];

const MARK_NAMES: Record<string, string> = {
  '/': 'slash',
  '\\': 'backslash',
  ',': 'comma',
  '.': 'dot',
  ':': 'colon',
  ';': 'semicolon',
  '-': 'hyphen dash',
  _: 'underscore',
  '*': 'asterisk',
  '|': 'pipe',
  '~': 'tilde',
  '#': 'hash',
  '&': 'ampersand',
  '%': 'percent',
};
const LONE_MARK = /(?<=(["'`‘“]))([/\\,.:;\-_*|~#&%])(?=["'`’”])|(?<=^|\s)([/\\,.:;\-_*|~#&%])(?=[\s,;?!)]|$)/g;

const QUOTED_LETTER = /(?<=^|[\s(])['‘’"“`](\p{L})['’"”`](?=$|[\s.,;:)?!])/gu;
/**
 * Abbreviations documentation writes for words a question may spell out, and the reverse: "(a.k.a.
 * HTTP-Header-Case)" answers "also known as", an `fs-extra/esm` import "as an ES module".
 */
const ABBREVIATIONS: Array<[RegExp, string]> = [
  [/\ba\.k\.a\b/i, 'also known as'],
  [/\bESM\b/i, 'ES module'],
  [/\bES\s?modules?\b/i, 'ESM'],
  [/\bCJS\b/i, 'CommonJS'],
  [/\bCommonJS\b/i, 'CJS'],
];
const CONTRACTED_NOT = /\p{L}n['’]t\b/iu;
const EXIT = /\bexit\s+(?:codes?|status(?:es)?)\b/i;

/**
 * Stems are cut to this many letters: Porter's stemmer leaves "prioritized" and "priorities" as
 * "priorit" and "prioriti", "configuration" and "configure" as "configur" and "configur" — a
 * longer common prefix is the same word far more often than not.
 */
const MAX_STEM = 7;

/** Words too common to tell one unit from another. */
const STOP = new Set(
  'a an and are as at be been but by can could did do does doing for from had has have how i if in into is it its me my of on one or our she so than that the their them then there these they this to was were what when where which who whom why will with would you your about tell please should shall may might must any some also just more most less least without given whether like against whose every each both either neither once onto upon via per within among amongst through during until while because here own very too again further myself yourself itself themselves ourselves him his her hers ours theirs yours those am being having many several various'.split(
    ' ',
  ),
);

/** A question's frame in Chinese and Japanese (について教えてください, 关于, 告诉): English's "tell", "about", "please". */
const QUESTION_FRAME = ['关于', '告诉', '一下', 'について', '教え', '教えて', 'ください', '下さい'];

/**
 * Chinese and Japanese function words and a question's frame: in every text, they tell none apart
 * (search's too). Chinese ones in both scripts: a question in Traditional Chinese asks 有什麼作用.
 */
export const CJK_STOP: readonly string[] = [
  ...'的 了 是 在 和 与 及 或 吗 呢 吧 啊 也 都 就 个 这 那 什么 做 把 被 将 从 对 向 给 让 成 如何 怎么 怎样 多少 哪些 哪个 哪里 哪儿 为什么 请 我 你 他 她 它 们 有 没有 中 下 の は が を に で と も か な です ます する こと これ それ どう 何 どの'.split(
    ' ',
  ),
  ...'與 嗎 個 這 什麼 將 從 對 給 讓 怎麼 怎樣 哪個 哪裡 哪兒 為什麼 請 們 沒有 どこ'.split(' '),
  ...QUESTION_FRAME,
];

/** Those, and words pointing at a text's parts (里, 各项, 列出, 項目): where to look, not what. */
const STOP_SPACELESS = new Set([...CJK_STOP, ...'里 各 项 意思 用 列出 列举 一覧 列挙 挙げ 挙 項目'.split(' ')]);

/** The long-vowel marks ー and ｰ are of no script of their own: a katakana word runs on through them. */
const SPACELESS_RUN =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}ーｰ]+/gu;

/**
 * A word's stem. A three-letter word ending in "s" is whole: it is an acronym (TLS, DNS, AWS) far
 * more often than a plural, and "tls" cut to "tl" is the "TL" of "TL;DR".
 */
function stemOf(lower: string): string {
  if (/^\p{L}{2}s$/u.test(lower)) return lower;
  // Porter leaves "modify" as "modifi" and "modification" as "modif": one word, one stem.
  const stem = stemmer(infinitiveOf(oneSpelling(lower))).replace(/ifi$/, 'if');
  // A name English never says is whole: compressoptions is not compresscmd, nor dateformat dateext.
  return [lower, ...spellings(lower)].some(isEnglishWord) ? stem.slice(0, MAX_STEM) : stem;
}

/**
 * Japanese writes its grammar in hiragana: a word of one or two hiragana is a particle, an
 * auxiliary or an inflection's ending (し, れ, て, でき, まで); longer ones that ask or ask politely
 * are listed. Content words are written in kanji or katakana.
 */
const HIRAGANA = /^\p{Script=Hiragana}+$/u;
const JA_GRAMMAR = new Set(
  'いくつ いくら くらい ぐらい どれ どこ どちら どんな どのよう だれ いつ なぜ ください される られる できる ている ません ました でしょう すれば いい よい ように ような させる させない しない ですか ますか'.split(
    ' ',
  ),
);
const TRAILING_PARTICLE = /(?<=\p{Script=Han})[はがをにでとのもへ]$/u;
const PARTICLES = new Set('は が を に で と の も へ や'.split(' '));
const isGrammar = (w: string) => HIRAGANA.test(w) && (w.length <= 2 || JA_GRAMMAR.has(w));

/**
 * The character pairs of a word of three characters or more, where both are Han: a compound of
 * kanji (准确率, 文字数) holds words; a katakana loanword (プリセット) or a kanji with its
 * hiragana ending (厳しめ) does not.
 */
const HAN = /\p{Script=Han}/u;
function hanPairs(w: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < w.length; i++) if (HAN.test(w[i]) && HAN.test(w[i + 1])) out.push(w.slice(i, i + 2));
  return out;
}

/**
 * Words of software documentation that Chinese and Japanese write for an English one, often beside
 * it: a Japanese README's section is "Installation", its reader asks for インストール. Each is the
 * English word's term, so either finds the other.
 */
const GLOSSARY = new Map(
  Object.entries({
    install: 'インストール 安装 安裝',
    default: 'デフォルト 默认 默認 預設',
    option: 'オプション 选项 選項',
    usage: '使い方 用法 使用',
    example: 'サンプル 示例 例子 範例',
    license: 'ライセンス 许可证 許可證',
    version: 'バージョン 版本',
    error: 'エラー 错误 錯誤',
    function: '関数 函数 函數',
    method: '方法 メソッド',
    check: 'チェック 检查 檢查',
    convert: '変換 转换 轉換',
    hiragana: 'ひらがな 平仮名',
    katakana: 'カタカナ 片仮名',
    date: '日期 日付',
    format: '格式 フォーマット 形式',
    support: '支持 サポート',
  }).flatMap(([english, words]) => words.split(' ').map((w) => [w, english])),
);

/**
 * The English words of the glossary's words a text writes ("install" for インストール), wherever
 * they stand in a run, for a search to look for too. Not the other way: an English question
 * searching for 安装 draws in Chinese passages that say nothing else it asks.
 */
export const glossaryIn = (text: string): string[] => [
  ...new Set((text.toLowerCase().match(GLOSSARY_WORD) ?? []).map((w) => GLOSSARY.get(w)!)),
];

/** A word made of "sub" and an English word of four letters or more. */
const SUB_PREFIXED = /^sub(\p{Ll}{4,})$/u;

/**
 * A word after "to" joined to it as a conversion method is named: "converts katakana to hiragana"
 * names toHiragana, "to string" toString. Lower-cased; none for a function word ("to the").
 */
export function methodNames(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\bto\s+(\p{L}+)/giu))
    if (!STOP.has(m[1].toLowerCase())) out.push(`to${m[1]}`.toLowerCase());
  return out;
}

/**
 * A katakana word of four characters or more without its final long-vowel mark, as Lucene's
 * JapaneseKatakanaStemFilter reads it: サーバー and サーバ, ユーザー and ユーザ are one word that
 * writers spell both ways.
 */
export const katakanaStem = (word: string): string => (KATAKANA_LONG.test(word) ? word.slice(0, -1) : word);

const KATAKANA_LONG = /^[\p{Script=Katakana}ーｰ]{3,}[ーｰ]$/u;

/** The other spelling of a katakana word's final long vowel (サーバ for サーバー, and the reverse), for a search to look for too. */
export const katakanaForms = (word: string): string[] => {
  if (!/^[\p{Script=Katakana}ーｰ]{3,}$/u.test(word)) return [];
  const stem = katakanaStem(word);
  return stem === word ? [`${word}ー`] : [stem];
};

/** Stemmed words (and camel-case parts), stop words left out; CJK words plus pairs of Han characters. */
function wordTerms(text: string): string[] {
  const out: string[] = [];
  const add = (w: string) => {
    const lower = w.toLowerCase();
    if (STOP.has(lower) || STOP_SPACELESS.has(lower) || isGrammar(lower)) return;
    const english = GLOSSARY.get(lower);
    if (english) out.push(stemOf(english));
    // A particle the segmenter left on a kanji word is not the word: 後に is 後.
    else if (isSpaceless(lower)) out.push(katakanaStem(lower.replace(TRAILING_PARTICLE, '')));
    else if (lower.length >= 2 || /\d/.test(lower)) out.push(/^\p{L}+$/u.test(lower) ? stemOf(lower) : lower);
    // A "sub-" word is also its root ("subdependencies" are dependencies, a subcommand a command).
    const root = SUB_PREFIXED.exec(lower)?.[1];
    if (root && !STOP.has(root) && isEnglishWord(root)) out.push(stemOf(root));
  };
  for (const word of words(text)) {
    // Words of scripts without spaces are read run by run below.
    if (isSpaceless(word)) continue;
    for (const raw of word.match(/[\p{L}\p{M}\p{N}]+/gu) ?? []) {
      // Camel case is an identifier, named whole and unstemmed (isHolidayAt is not isHoliday), and
      // gives its parts too: "BunyanDeepObj" is also bunyan, deep, obj.
      if (/\p{Ll}\p{Lu}/u.test(raw)) {
        out.push(raw.toLowerCase());
        for (const part of raw.match(/\p{Lu}?\p{Ll}+|\p{Lu}+(?!\p{Ll})|\p{N}+/gu) ?? []) add(part);
      } else add(raw);
    }
  }
  for (const run of text.match(SPACELESS_RUN) ?? [])
    for (const piece of run.split(GLOSSARY_WORD))
      for (const w of GLOSSARY.has(piece) ? [piece] : spacelessWords(piece)) {
        add(w);
        // A word of three characters or more also gives its pairs of Han characters, so 准确率 finds 准确.
        if (w.length >= 3 && !GLOSSARY.has(w)) out.push(...hanPairs(w));
      }
  return out;
}

/**
 * The glossary's words inside a run of CJK, longest first, each kept whole: the segmenter's
 * dictionary may split one (许可证 as 许可 + 证), and then the glossary would not know it.
 */
const GLOSSARY_WORD = new RegExp(`(${[...GLOSSARY.keys()].sort((a, b) => b.length - a.length).join('|')})`, 'gu');

/**
 * The words of a run of CJK characters. Three or more hiragana the segmenter's dictionary gave one
 * by one are one word it does not know (ひ ら が な is ひらがな), not a row of particles; a particle
 * that starts or ends such a run is its own word (とひらがなを).
 */
function spacelessWords(run: string): string[] {
  const out: string[] = [];
  let kana: string[] = [];
  const flush = () => {
    const before = kana.length >= 4 && PARTICLES.has(kana[0]) ? kana.shift() : undefined;
    const after = kana.length >= 4 && PARTICLES.has(kana.at(-1)!) ? kana.pop() : undefined;
    if (before) out.push(before);
    if (kana.length >= 3) out.push(kana.join(''));
    else out.push(...kana);
    if (after) out.push(after);
    kana = [];
  };
  for (const w of words(run)) {
    if (w.length === 1 && HIRAGANA.test(w)) kana.push(w);
    else {
      flush();
      out.push(w);
    }
  }
  flush();
  return out;
}

/**
 * Symbols as written: option flags, names opening on two underscores (`__dirname`, a cookie's
 * `__Host-` prefix), dotted or called identifiers, version ranges and numbers
 * with their dots, format specifiers, assignments, runs of operator characters and short names
 * joined by slashes (split's `l/K/N`, I/O), names joined to a number (UTF-8, KOI8-U, HTTP/3: KOI8-U
 * is not KOI8-R, though "U" and "R" are no words), all in lower
 * case; a one-letter flag also as written (`-V` and `-v` differ in a man page), so its case decides
 * between two units that both hold it.
 */
const SYMBOL =
  /(?<![\p{L}\p{N}_])(?:__[\p{L}\p{N}][\p{L}\p{N}_]*-?|--?[\p{L}\p{N}#][\p{L}\p{N}_-]*|-[0-9#]|\.?[\p{L}_$][\p{L}\p{N}_$]*(?:\.[\p{L}_$][\p{L}\p{N}_$]*)+(?:\(\))?|\.[\p{L}_$][\p{L}\p{N}_$]*(?:\(\))?|[\p{L}_$][\p{L}\p{N}_$]*\(\)|[\^~<>=]*v?\d+(?:\.(?:\d+|x|\*))+(?:-[\p{L}\p{N}.]+)?|%[\p{L}]|[\p{L}_][\p{L}\p{N}_]*=[^\s,;'"`]*|[*+^~=<>|&!?:]{2,}|\*|[\p{L}\p{N}]{1,2}(?:\/[\p{L}\p{N}]{1,2})+(?![\p{L}\p{N}/])|\p{L}(?=[\p{L}\p{N}/-]*\d)[\p{L}\p{N}]*(?:[-/][\p{L}\p{N}]+(?:\.\d+)*)+|[\p{L}_$@][\p{L}\p{N}_$.-]*(?:\/[\p{L}\p{N}_$.*+-]+)+)/gu;

const CJK_BOUNDARY =
  /(?<=[\x21-\x7e])(?=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])|(?<=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])(?=[\x21-\x7e])/gu;

/**
 * A file's extension is no member of an object: "Node.js" and "cli.js" share nothing, as
 * `minimatch.makeRe` and `.makeRe` do.
 */
const FILE_EXTENSION =
  /^\.(?:m?js|cjs|jsx|tsx?|json|md|txt|html?|css|py|rb|go|rs|java|c|h|cc|cpp|sh|ya?ml|toml|xml|ini|conf|cfg|log|png|jpe?g|gif|svg|pdf|docx?|zip|gz|tar|tgz|exe|dll|so|a|o)$/;

/** Whether a dotted name ends in a file's extension: a file or a product (`cli.js`, Node.js, Day.js), no API. */
export const namesFile = (name: string) => FILE_EXTENSION.test(/\.[^.]*$/.exec(name)?.[0] ?? '');

export function symbolsOf(text: string): string[] {
  const out: string[] = [];
  // Chinese and Japanese write no space before or after a name ("v3.x系までは"): the script changes there.
  for (const m of text.replace(CJK_BOUNDARY, ' ').matchAll(SYMBOL)) {
    let s = m[0].toLowerCase().replace(/[.,;:]+$/, '');
    if (s.length < 1) continue;
    // A method headed by its member and arguments (`.succeed(text?)`) is the call asked as `.succeed()`.
    if (/^\.[\p{L}_$][\p{L}\p{N}_$]*$/u.test(s) && s === m[0].toLowerCase() && text[m.index + m[0].length] === '(')
      s += '()';
    // A plain word with a hyphen inside ("long-term") is words, not a symbol; flags start with "-".
    if (!/[-.^~<>=*%()|&!?#$_/]/.test(s) || /^\p{L}+(?:-\p{L}+)+$/u.test(s)) continue;
    // Words joined by a slash (and/or, input/output) are words; a path naming a module (kleur/colors) is a name.
    const parts = s.split('/');
    if (/^\p{L}+(?:\/\p{L}+)+$/u.test(s) && parts.some((p) => p.length > 2) && parts.every(isEnglishWord)) continue;
    out.push(`§${s}`);
    // A short flag also matches in its case: a man page's `-S` and `-s` are different options.
    if (/^-\p{L}$/u.test(m[0])) out.push(`§=${m[0]}`);
    // A call also matches its name without the parentheses, a range its version.
    if (s.endsWith('()')) out.push(`§${s.slice(0, -2)}`);
    // A member named by itself (`.makeRe`) matches it called on its object (`minimatch.makeRe(p)`).
    const member = /[\p{L}\p{N}_$]{2}(\.[\p{L}_$][\p{L}\p{N}_$]*)(?:\(\))?$/u.exec(s);
    if (member && !/^\d/.test(s) && !FILE_EXTENSION.test(member[1])) out.push(`§${member[1]}`);
    // A method headed by its member alone (`.drain()`) is the call asked by name ("drain()").
    const method = /^\.([\p{L}_$][\p{L}\p{N}_$]*)\(\)$/u.exec(s);
    if (method) out.push(`§${method[1]}()`, `§${method[1]}`);
    // A release named with its version ("dbus-1.8.8") matches the version said alone ("dbus 1.8.8").
    const release = /^\p{L}[\p{L}\p{N}]*-(v?\d+(?:\.\d+)+)$/u.exec(s);
    if (release) out.push(`§${release[1]}`);
    const bare = s.replace(/^[\^~<>=]+/, '');
    if (bare !== s && bare) out.push(`§${bare}`);
    // A file named by its path (`/etc/nsswitch.conf`) matches its name alone ("nsswitch.conf").
    const file = /\/([\p{L}\p{N}_-][\p{L}\p{N}_.-]*\.\p{L}[\p{L}\p{N}]*)$/u.exec(s);
    if (file) out.push(`§${file[1]}`);
  }
  return out;
}

/** Whether a name is written as a command-line flag: `-s`, `--signal=SIGNAL`, `‐r` as groff prints it. */
export const isFlag = (name: string) => /^[-‐]{1,2}[\p{L}\p{N}]/u.test(name);
