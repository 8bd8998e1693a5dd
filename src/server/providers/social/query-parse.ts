import { SOCIAL_LIMITS } from '../../../contract/social.js';
import type { FilterName, QueryNode } from '../../store/social/query-ast.js';

/** A query the platform cannot read; the service answers it with 400 SOCIAL_SEARCH_FAILED. */
export class SocialQueryError extends Error {}

type Token =
  | { kind: 'lparen' | 'rparen' | 'or' }
  | { kind: 'term'; text: string; quoted: boolean; negated: boolean; op?: string }
  | { kind: 'neg-paren' };

const FILTERS: readonly FilterName[] = [
  'replies',
  'media',
  'links',
  'images',
  'videos',
  'quote',
  'verified',
  'blue_verified',
  'retweets',
];
/** Every operator the platform knows; anything else written `name:value` is refused by name. */
export const OPERATORS = [
  'from',
  'to',
  'lang',
  'since',
  'until',
  'since_time',
  'until_time',
  'since_id',
  'max_id',
  'min_faves',
  'min_retweets',
  'min_replies',
  'filter',
  'url',
  'conversation_id',
  'quoted_tweet_id',
] as const;

/** Reads a quoted run starting at s[i] === '"'; returns the text and the index after the closing quote. */
function readQuoted(s: string, i: number): [string, number] {
  const end = s.indexOf('"', i + 1);
  if (end < 0) throw new SocialQueryError(`unclosed quote at character ${i + 1}`);
  return [s.slice(i + 1, end), end + 1];
}

/** Control characters other than tab and line breaks: refused, as no post holds them and the full-text engines end a string at NUL. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** The query's own bounds, checked on the tokens before anything nests: terms, url: operators, parentheses. */
function checkBounds(tokens: Token[]): void {
  const terms = tokens.filter((t) => t.kind === 'term');
  if (terms.length > SOCIAL_LIMITS.queryMaxTerms)
    throw new SocialQueryError(
      `the query has ${terms.length} terms; at most ${SOCIAL_LIMITS.queryMaxTerms} are allowed`,
    );
  const urls = terms.filter((t) => t.kind === 'term' && t.op === 'url').length;
  if (urls > SOCIAL_LIMITS.queryMaxUrlTerms)
    throw new SocialQueryError(
      `the query has ${urls} url: operators; at most ${SOCIAL_LIMITS.queryMaxUrlTerms} are allowed`,
    );
  let depth = 0;
  for (const t of tokens) {
    if (t.kind === 'lparen' || t.kind === 'neg-paren') depth++;
    else if (t.kind === 'rparen') depth--;
    if (depth > SOCIAL_LIMITS.queryMaxDepth)
      throw new SocialQueryError(`parentheses are nested more than ${SOCIAL_LIMITS.queryMaxDepth} deep`);
  }
}

function tokenize(s: string): Token[] {
  const control = CONTROL.exec(s);
  if (control)
    throw new SocialQueryError(
      `control character U+${control[0].charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()} at character ${control.index + 1}; queries hold text only`,
    );
  const out: Token[] = [];
  let i = 0;
  while (i < s.length) {
    const ch = s[i];
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === '(') {
      out.push({ kind: 'lparen' });
      i++;
      continue;
    }
    if (ch === ')') {
      out.push({ kind: 'rparen' });
      i++;
      continue;
    }
    let negated = false;
    if (ch === '-' && i + 1 < s.length && !/\s/.test(s[i + 1])) {
      negated = true;
      i++;
      if (s[i] === '(') {
        out.push({ kind: 'neg-paren' });
        i++;
        continue;
      }
    }
    if (s[i] === '"') {
      const [text, next] = readQuoted(s, i);
      out.push({ kind: 'term', text, quoted: true, negated });
      i = next;
      continue;
    }
    let j = i;
    while (j < s.length && !/[\s()"]/.test(s[j])) j++;
    const raw = s.slice(i, j);
    const op = /^([A-Za-z_]+):(.*)$/.exec(raw);
    if (op) {
      // name:"value with spaces"
      if (op[2] === '' && s[j] === '"') {
        const [text, next] = readQuoted(s, j);
        out.push({ kind: 'term', text, quoted: true, negated, op: op[1].toLowerCase() });
        i = next;
        continue;
      }
      out.push({ kind: 'term', text: op[2], quoted: false, negated, op: op[1].toLowerCase() });
    } else if (raw === 'OR' && !negated) {
      out.push({ kind: 'or' });
    } else if (raw === 'AND' && !negated) {
      // Explicit AND is what juxtaposition already means.
    } else {
      out.push({ kind: 'term', text: raw, quoted: false, negated });
    }
    i = j;
  }
  return out;
}

function dateSeconds(value: string, op: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  if (
    !m ||
    Number.isNaN(ms) ||
    new Date(ms).getUTCDate() !== Number(m[3]) ||
    new Date(ms).getUTCMonth() !== Number(m[2]) - 1
  )
    throw new SocialQueryError(`${op}: wants a date YYYY-MM-DD, got "${value}"`);
  return ms / 1000;
}

function wholeNumber(value: string, op: string): number {
  if (!/^\d{1,15}$/.test(value)) throw new SocialQueryError(`${op}: wants a whole number, got "${value}"`);
  return Number(value);
}

function digits(value: string, op: string): string {
  if (!/^\d{1,20}$/.test(value)) throw new SocialQueryError(`${op}: wants a post id (digits), got "${value}"`);
  return value;
}

function name(value: string, op: string): string {
  const v = value.replace(/^@/, '');
  if (!/^\w{1,50}$/.test(v)) throw new SocialQueryError(`${op}: wants a username, got "${value}"`);
  return v.toLowerCase();
}

function operatorNode(op: string, value: string): QueryNode {
  if (value === '') throw new SocialQueryError(`${op}: has no value`);
  switch (op) {
    case 'from':
    case 'to':
      return { type: op, username: name(value, op) };
    case 'lang':
      if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})?$/.test(value))
        throw new SocialQueryError(`lang: wants a language code such as en, got "${value}"`);
      return { type: 'lang', lang: value.toLowerCase() };
    case 'since':
    case 'until':
      return { type: op, ts: dateSeconds(value, op) };
    case 'since_time':
      return { type: 'since', ts: wholeNumber(value, op) };
    case 'until_time':
      return { type: 'until', ts: wholeNumber(value, op) };
    case 'since_id':
    case 'max_id':
    case 'conversation_id':
    case 'quoted_tweet_id':
      return { type: op, id: digits(value, op) };
    case 'min_faves':
    case 'min_retweets':
    case 'min_replies':
      return { type: op, count: wholeNumber(value, op) };
    case 'filter': {
      const f = value.toLowerCase() as FilterName;
      if (!FILTERS.includes(f))
        throw new SocialQueryError(`unknown filter "filter:${value}"; known: ${FILTERS.join(', ')}`);
      return { type: 'filter', filter: f };
    }
    case 'url':
      return { type: 'url', text: value.toLowerCase() };
    default:
      throw new SocialQueryError(`unknown operator "${op}:"; known: ${OPERATORS.join(', ')}`);
  }
}

/** A bare word: @mention, #hashtag, $CASHTAG or full-text; null for one with no letter or digit. */
function wordNode(text: string, quoted: boolean): QueryNode | null {
  if (quoted) return /[\p{L}\p{N}]/u.test(text) ? { type: 'text', text, phrase: true } : null;
  if (/^@\w{1,50}$/.test(text)) return { type: 'mention', username: text.slice(1).toLowerCase() };
  if (/^#[\p{L}\p{N}_]+$/u.test(text)) return { type: 'hashtag', tag: text.slice(1).toLowerCase() };
  if (/^\$[A-Za-z][A-Za-z0-9_.]{0,11}$/.test(text)) return { type: 'cashtag', tag: text.slice(1).toLowerCase() };
  return /[\p{L}\p{N}]/u.test(text) ? { type: 'text', text, phrase: false } : null;
}

/**
 * Parses the advanced search syntax: words (AND), "exact phrase", OR, parentheses, - negation of
 * words, phrases, operators and groups, and the operators of OPERATORS (an explicit AND is allowed). OR binds tighter than the
 * implicit AND, as on the service the syntax comes from: `a b OR c` is a AND (b OR c).
 */
export function parseQuery(query: string): QueryNode {
  const tokens = tokenize(query);
  checkBounds(tokens);
  let pos = 0;

  const atom = (): QueryNode | null => {
    const t = tokens[pos++];
    if (t.kind === 'lparen' || t.kind === 'neg-paren') {
      const inner = conjunction(true);
      if (tokens[pos]?.kind !== 'rparen') throw new SocialQueryError('a "(" is never closed');
      pos++;
      if (!inner) throw new SocialQueryError('empty parentheses');
      return t.kind === 'neg-paren' ? { type: 'not', item: inner } : inner;
    }
    if (t.kind === 'term') {
      const node = t.op !== undefined ? operatorNode(t.op, t.text) : wordNode(t.text, t.quoted);
      if (!node) return null;
      return t.negated ? { type: 'not', item: node } : node;
    }
    if (t.kind === 'rparen') throw new SocialQueryError('a ")" has no matching "("');
    throw new SocialQueryError('OR needs a term on both sides');
  };

  const disjunction = (): QueryNode | null => {
    const items: QueryNode[] = [];
    const first = atom();
    if (first) items.push(first);
    while (tokens[pos]?.kind === 'or') {
      pos++;
      if (pos >= tokens.length || tokens[pos].kind === 'rparen' || tokens[pos].kind === 'or')
        throw new SocialQueryError('OR needs a term on both sides');
      const next = atom();
      if (next) items.push(next);
    }
    if (items.length === 0) return null;
    return items.length === 1 ? items[0] : { type: 'or', items };
  };

  const conjunction = (nested: boolean): QueryNode | null => {
    const items: QueryNode[] = [];
    while (pos < tokens.length && tokens[pos].kind !== 'rparen') {
      if (tokens[pos].kind === 'or') throw new SocialQueryError('OR needs a term on both sides');
      const node = disjunction();
      if (node) items.push(node);
    }
    if (!nested && pos < tokens.length) throw new SocialQueryError('a ")" has no matching "("');
    if (items.length === 0) return null;
    return items.length === 1 ? items[0] : { type: 'and', items };
  };

  const tree = conjunction(false);
  if (!tree) throw new SocialQueryError('the query has no searchable term');
  return tree;
}
