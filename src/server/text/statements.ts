import type { PhrasingContent } from 'mdast';
import { markdownBlocks, type Block } from './markdown.js';
import { inlineSentences, sentences } from './segment.js';
import { textLength } from './shorten.js';
import { isTerm } from './term-paragraph.js';

/**
 * What a deck, a landing page or a mindmap may show as a point: a whole sentence of prose or a whole
 * list item, as the source wrote it (characters kept, Markdown marks dropped as markup). Never code,
 * a table, an image or badge, a list of links, raw HTML, or a sentence cut short: a statement too
 * long for the room is left out, and a shorter one is chosen instead.
 */
export interface Statement {
  /** What a reader sees. */
  text: string;
  /** The same as inline Markdown (code spans and links intact). */
  markdown: string;
  /** The headings above it, outermost first. */
  section: string[];
  kind: 'sentence' | 'item';
}

const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;

/** Whether a line reads as code, not prose: what it says outside its code spans is program text. */
export function looksLikeCode(text: string): boolean {
  const s = text.trim();
  if (!s) return false;
  if (/^[{[<#>]|^\$\s|^\/\/|^(const|let|var|import|export|function|class|return|await|if|for|while)\b/.test(s))
    return true;
  if (/=>|\(\)|\)\s*;|[{(,]\s*$|^\w+(\.\w+)+\(|\b\w+\(\{/.test(s)) return true;
  const marks = (s.match(/[{}()[\];=<>|\\]/g) ?? []).length;
  const words = (s.match(/\p{L}{2,}/gu) ?? []).length;
  return marks / s.length > 0.06 || (words < 2 && !CJK.test(s));
}

/**
 * A shell command a page printed as a paragraph (groff renders a man page's examples so): no end
 * mark, and a pipe into a command, a path or `#!` first, a shell variable (`$@`, `$HOME`), or a
 * command word followed only by flags and file names ("gunzip -c foo", "gzip -c a b > foo.gz",
 * "./configure --with-debug ...").
 */
export function looksLikeCommand(text: string): boolean {
  // An argument list left open ("./configure --with-debug ...") is no sentence's end.
  const s = text.trim().replace(/\s+(?:\.{3}|…)$/, '');
  if (/[.!?。！？:：;]$/.test(s)) return false;
  return (
    /\s\|\s+[\w./-]/.test(s) ||
    /^(?:#!|\/[\w.-]+\/)/.test(s) ||
    /\$(?:[@*#?]|\{?[A-Z_]+\b)/.test(s) ||
    // A command word, maybe run from the directory it is in (`./configure`), then flags and files.
    /^(?:\.\.?\/)?[\p{L}.][\w.-]*(?:\s+-{1,2}[\w#-]+)+(?:\s+[\w./*-]+)*(?:\s*[<>]\s*[\w./-]+)?$/u.test(s)
  );
}

/**
 * A sentence that opens by pointing back at what an earlier one named ("This option is the default
 * when decompressing", "These are used when…", "With this option, …", "Seeing that message…"): alone, it does not say what
 * it is about. "This module…", "This library…" speak of the whole document, and are no such thing.
 */
export function pointsBack(text: string): boolean {
  const m =
    /^(?:(?:with|in|for|by|on|under|after|before|from|of|at|\p{L}{2,}ing)\s+)?(this|that|these|those|it|its|such|they|their|here)\b\s*(\p{L}*)/iu.exec(
      text.trim(),
    );
  return m !== null && !WHOLE.test(m[2]);
}

/** What "this" names when it means the whole document or what it documents. */
const WHOLE =
  /^(?:module|library|package|project|tool|program|utility|document|guide|page|site|repository|repo|app|application|plugin|extension|readme|framework|manual|book|tutorial)s?$/i;

/** Inline content that is nothing but links (and separators): a list of links, not a statement. */
function onlyLinks(nodes: readonly PhrasingContent[] | undefined): boolean {
  if (!nodes?.length) return false;
  let links = 0;
  for (const n of nodes) {
    if (n.type === 'link' || n.type === 'linkReference') links++;
    else if (n.type === 'text') {
      if (/[\p{L}\p{N}]{2,}/u.test(n.value.replace(/\b(and|or|und|et)\b/g, ''))) return false;
    } else if (n.type !== 'break') return false;
  }
  return links > 0;
}

/** The end of a sentence that says what follows is its content: "as follows", 次の通りです, 以下のようになっています. */
const POINTS_FORWARD =
  /(?:\b(?:as follows|the following|below)|(?:次|以下)の(?:通り|とおり|よう)(?:です|になります|になっています|に(?:します|なります))?)\s*[.。]?$/iu;

/** A last word that leaves a sentence open: an article, a preposition or conjunction that needs what follows. */
const RUNS_ON = /\b(?:the|a|an|than|of|to|and|or|with|from|into|by|as|like)$/i;

/** The inline Markdown of a sentence with its code spans taken out: what looksLikeCode reads. */
const withoutCodeSpans = (markdown: string) => markdown.replace(/(`+)[^`]*?\1/g, ' code ');

function usable(text: string, markdown: string, maxChars: number, short = false): boolean {
  const s = text.trim();
  const len = textLength(s);
  if (len > maxChars || len === 0) return false;
  const cjk = CJK.test(s);
  if (!short && (cjk ? len < 6 : len < 12 || s.split(/\s+/).length < 3)) return false;
  // A fragment of a sentence split at an abbreviation ("Brave, Chrome, and Electron), the ...") is no statement.
  const opened = (s.match(/[([{（]/g) ?? []).length;
  const closed = (s.match(/[)\]}）]/g) ?? []).length;
  if (opened !== closed) return false;
  // A sentence that introduces what follows ("Using NPM:", "… as follows.", "デフォルト設定は次の
  // 通りです。") leaves out what it introduces.
  if (/[:：]$/.test(s) || POINTS_FORWARD.test(s)) return false;
  // So does one that stops on a word no sentence ends with ("compresses better than", between two
  // commands in gzip's man page): it runs on into what it leaves out.
  if (RUNS_ON.test(s)) return false;
  return !looksLikeCode(withoutCodeSpans(markdown)) && !looksLikeCommand(s);
}

/**
 * The statements of Markdown text, in document order, each at most `maxChars` characters (code
 * points: a CJK character is one).
 */
export function statementsOf(markdown: string, maxChars: number, locale?: string, short = false): Statement[] {
  const blocks = markdownBlocks(markdown);
  return blocks.flatMap((block, i) =>
    isCaption(block, blocks[i + 1], blocks[i + 2]) ? [] : blockStatements(block, maxChars, locale, short),
  );
}

/**
 * A label over a code block (a paragraph set wholly in bold or italics, as a disclosure's
 * `<summary>` is written, or of a word or two: "Via CLI") that ends in no sentence's mark names the
 * code: it states nothing. Unless the text after the code goes on with it ("…add" [code] "where…").
 */
export const isCaption = (block: Block, next: Block | undefined, after: Block | undefined) =>
  block.kind === 'paragraph' &&
  next?.kind === 'code' &&
  (emphasizedWhole(block.inline ?? []) || block.text.trim().split(/\s+/).length < 3) &&
  !/[.!?。！？:：]$/.test(block.text.trim()) &&
  !(after?.kind === 'paragraph' && /^\p{Ll}/u.test(after.text));

const emphasizedWhole = (nodes: readonly PhrasingContent[]) => {
  const shown = nodes.filter((n) => !(n.type === 'text' && !n.value.trim()));
  return shown.length > 0 && shown.every((n) => n.type === 'strong' || n.type === 'emphasis');
};

/** `short`: fragments of fewer than three words count too (for a text that holds nothing longer). */
export function blockStatements(block: Block, maxChars: number, locale?: string, short = false): Statement[] {
  const { section } = block;
  switch (block.kind) {
    case 'listItem': {
      if (onlyLinks(block.inline)) return [];
      if (usable(block.text, block.markdown, maxChars, short))
        return [{ text: block.text, markdown: block.markdown, section, kind: 'item' }];
      return proseSentences(block, maxChars, locale, short);
    }
    case 'paragraph':
      // A definition's term alone (a man page's `**-c --stdout**`) names a point; it makes none.
      if (onlyLinks(block.inline) || (!short && isTerm(block))) return [];
      return proseSentences(block, maxChars, locale, short);
    case 'blockquote':
      // A quote's own blocks, so its sentences keep their code spans (`"pino": "~6.1.x"`) and emphasis.
      return block.children.flatMap((b) => blockStatements(b, maxChars, locale, short));
    default:
      // Headings name sections; code, tables, HTML, images and badges are never points.
      return [];
  }
}

function proseSentences(block: Block, maxChars: number, locale?: string, short = false): Statement[] {
  const found = block.inline
    ? inlineSentences(block.inline, locale)
    : sentences(block.text, locale).map((s) => ({ text: s, markdown: s }));
  return found
    .map((s) => ({ text: s.text.replace(/\s+/g, ' ').trim(), markdown: s.markdown.replace(/\s+/g, ' ').trim() }))
    .filter((s) => usable(s.text, s.markdown, maxChars, short))
    .map((s) => ({ ...s, section: block.section, kind: 'sentence' as const }));
}
