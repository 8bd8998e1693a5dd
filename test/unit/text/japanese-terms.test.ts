import { expect, it } from 'vitest';
import fc from 'fast-check';
import { termsOf } from '../../../src/server/text/terms.js';

/**
 * Japanese writes its grammar in hiragana and its content words in kanji and katakana. Before,
 * particles, auxiliaries and question words (し, れ, いくつ) were key terms a source had to hold,
 * so "読点は1文中にいくつまで使えますか？" was refused, and a katakana word counted five times
 * (プリセット and its pairs プリ, リセ, セッ, ット), so a sentence naming the preset "covered" a
 * question about VS Code.
 */
it('hiragana grammar words and question words are no terms', () => {
  const terms = termsOf('読点は1文中にいくつまで使えますか？');
  expect(terms).toEqual(expect.arrayContaining(['読', '点', '文中']));
  for (const grammar of ['は', 'いくつ', 'いく', 'くつ', 'まで', 'ます', 'か']) expect(terms).not.toContain(grammar);
});

it('a katakana word gives no character pairs; a kanji compound gives its pairs of kanji', () => {
  expect(termsOf('プリセット')).toEqual(['プリセット']);
  expect(termsOf('文字数')).toEqual(['文字数', '文字', '字数']);
  // A kanji with its hiragana ending is a word; its pair with the ending is not.
  expect(termsOf('厳しめ')).not.toContain('しめ');
  // Chinese is written in Han throughout: its pairs are all kept.
  expect(termsOf('科学记数法')).toEqual(['科学', '记数法', '记数', '数法']);
});

it('hiragana the segmenter gives one by one are one word: ひらがな, the glossary\'s "hiragana"', () => {
  const [hiragana] = termsOf('hiragana');
  expect(termsOf('連続できるひらがなは何文字までですか？')).toContain(hiragana);
  expect(termsOf('カタカナとひらがなを変換します')).toEqual(
    expect.arrayContaining(termsOf('katakana hiragana convert')),
  );
});

it('no term of any text is a hiragana word of one or two characters', () => {
  const kana =
    'あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをんがぎぐげござじずぜぞだでどばびぶべぼ';
  const pieces = fc.constantFrom('漢字', 'カタカナ', '設定', 'npm', ' ', '、', ...kana.split(''));
  fc.assert(
    fc.property(fc.array(pieces, { maxLength: 30 }), (parts) => {
      for (const t of termsOf(parts.join(''))) expect(/^\p{Script=Hiragana}{1,2}$/u.test(t)).toBe(false);
    }),
  );
});

// The long-vowel mark ー is of no script of its own (Unicode's "Common"): a katakana run was cut at
// it, and インストール was the terms イン, スト and ル, which no source writing it held whole.
it('a katakana word with the long-vowel mark is one term: インストール, サーバー', () => {
  expect(termsOf('サーバーの設定')).toEqual(expect.arrayContaining(termsOf('サーバー')));
  for (const piece of ['イン', 'スト', 'ル', 'サ', 'バ'])
    expect(termsOf('サーバーのインストール')).not.toContain(piece);
});

// Documentation's own words, as Chinese and Japanese write them, are the English word's terms: a
// Japanese README's section is "Installation", its reader asks for インストール.
it('documentation words in Chinese or Japanese are the English word: インストール, 默认, オプション', () => {
  expect(termsOf('インストール方法')).toEqual(expect.arrayContaining(termsOf('install')));
  expect(termsOf('默认值')).toEqual(expect.arrayContaining(termsOf('default')));
  expect(termsOf('オプション')).toEqual(termsOf('option'));
});

// The segmenter split 许可证 into 许可 and 证, so "debug 是什么许可证？" never asked for the licence.
it('a glossary word the segmenter would split is read whole: 许可证 is license', () => {
  expect(termsOf('debug 是什么许可证？')).toEqual([...termsOf('debug'), ...termsOf('license')]);
  expect(termsOf('如何使用 debug')).toEqual(expect.arrayContaining(termsOf('usage')));
});

// Writers spell a katakana word's final long vowel both ways (サーバー and サーバ, カレンダー and
// カレンダ); whole words, the two were two terms, and a question spelling it the other way was refused.
it('a katakana word of four characters or more is the same term with or without its final ー', () => {
  expect(termsOf('サーバー')).toEqual(termsOf('サーバ'));
  expect(termsOf('ユーザーリスト')).toEqual(expect.arrayContaining(termsOf('ユーザ')));
  // A shorter word keeps its mark: ルール's is its vowel, not a spelling.
  expect(termsOf('ルール')).toEqual(['ルール']);
});

// A question's frame is no term, as "tell", "about" and "please" are not: "スペースについて教えてください"
// asked for について and 教え, which no passage about spaces holds.
it("a question's frame (について教えてください, 关于, 告诉) gives no terms", () => {
  expect(termsOf('スペースについて教えてください')).toEqual(['スペース']);
  expect(termsOf('告诉我关于拼音的信息')).not.toEqual(expect.arrayContaining(['告诉', '关于']));
});

// prh's README: "v3.x系まではこのオプションがデフォルトの振る舞いでした。" held the symbol
// "v3.x系まではこのオプション", so "v3.x 系" asked of it was a version no source stated.
it('a name or version written against Chinese or Japanese text ends where the script changes', () => {
  expect(termsOf('v3.x系まではこのオプション')).toEqual(expect.arrayContaining(['§v3.x', 'v3', '系']));
  expect(termsOf('v3.x系まではこのオプション').filter((t) => t.startsWith('§') && /\p{Script=Han}/u.test(t))).toEqual(
    [],
  );
  fc.assert(
    fc.property(
      fc.stringMatching(/^[a-z][a-z0-9]{0,6}\.[a-z][a-z0-9]{0,6}$/),
      fc.constantFrom('系', 'を使う', 'は', '模块', 'オプション'),
      (name, cjk) => {
        expect(termsOf(`${cjk}${name}${cjk}`)).toContain(`§${name}`);
      },
    ),
  );
});

it('a Japanese question\'s frame ("どうすればいいですか", "させないように") holds no terms', () => {
  expect(termsOf('特定の段落を校正させないようにするにはどうすればいいですか')).toEqual(['特定', '段落', '校正']);
});
