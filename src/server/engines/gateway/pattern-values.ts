import { patternMatches } from './caller-patterns.js';

/**
 * Strings that match a JSON Schema `pattern`, for the local agent model. The pattern is read into a
 * small syntax tree (the ECMA-262 subset RE2 also runs) and a string is written from it: each
 * quantifier repeated its minimum (plus `extra` for open ones, to reach a minLength), each class
 * its first "plain" member, each alternation its first branch. Every candidate is then checked
 * on RE2 itself (linear time), so a pattern this reading gets wrong yields no value, never a wrong one.
 */
type Node =
  | { kind: 'chars'; ranges: Array<[number, number]>; negated: boolean }
  | { kind: 'alt'; branches: Node[][] }
  | { kind: 'repeat'; node: Node; min: number; max: number }
  | { kind: 'empty' };

/** Preferred characters, in order, when a class allows several. */
const PLAIN = 'aA0_-. x1bzZ9@/:'.split('').map((c) => c.codePointAt(0)!);
const DIGIT: Array<[number, number]> = [[48, 57]];
const WORD: Array<[number, number]> = [
  [97, 122],
  [65, 90],
  [48, 57],
  [95, 95],
];
const SPACE: Array<[number, number]> = [
  [32, 32],
  [9, 13],
];
/** A member of common Unicode properties (\p{…}); others are guessed as a letter. */
const PROPERTY_MEMBER: Record<string, number> = {
  Lu: 65,
  Lt: 0x1c5,
  Ll: 97,
  L: 97,
  Letter: 97,
  N: 48,
  Nd: 48,
  Number: 48,
  P: 46,
  Po: 46,
  Z: 32,
  Zs: 32,
  S: 43,
  Sm: 43,
  Latin: 97,
  Greek: 0x3b1,
  Cyrillic: 0x430,
  Han: 0x4e00,
};
/** Open quantifiers (*, +, {n,}) repeat at most this many extra times when stretching to a minLength. */
const MAX_EXTRA = 64;

class Reader {
  i = 0;
  constructor(readonly p: string) {}
  peek = () => this.p[this.i];
  done = () => this.i >= this.p.length;
}

function parseAlt(r: Reader): Node {
  const branches: Node[][] = [[]];
  while (!r.done() && r.peek() !== ')') {
    if (r.peek() === '|') {
      r.i++;
      branches.push([]);
      continue;
    }
    const atom = parseAtom(r);
    branches[branches.length - 1].push(parseQuantifier(r, atom));
  }
  return { kind: 'alt', branches };
}

function parseQuantifier(r: Reader, atom: Node): Node {
  const c = r.peek();
  let min: number, max: number;
  if (c === '*') [min, max] = [0, Infinity];
  else if (c === '+') [min, max] = [1, Infinity];
  else if (c === '?') [min, max] = [0, 1];
  else if (c === '{') {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(r.p.slice(r.i));
    if (!m) return atom;
    min = Number(m[1]);
    max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
    r.i += m[0].length - 1;
  } else return atom;
  r.i++;
  if (r.peek() === '?') r.i++; // lazy: same language
  return parseQuantifier(r, { kind: 'repeat', node: atom, min, max });
}

function escapeRanges(c: string): { ranges: Array<[number, number]>; negated: boolean } | null {
  switch (c) {
    case 'd':
      return { ranges: DIGIT, negated: false };
    case 'D':
      return { ranges: DIGIT, negated: true };
    case 'w':
      return { ranges: WORD, negated: false };
    case 'W':
      return { ranges: WORD, negated: true };
    case 's':
      return { ranges: SPACE, negated: false };
    case 'S':
      return { ranges: SPACE, negated: true };
    default:
      return null;
  }
}

const CONTROL: Record<string, number> = { n: 10, t: 9, r: 13, f: 12, v: 11, '0': 0 };

/** The code point of an escaped character after the backslash (reader at it), moving past it. */
function escapedCode(r: Reader): number {
  const rest = r.p.slice(r.i);
  const m =
    /^x([0-9A-Fa-f]{2})/.exec(rest) ??
    /^u([0-9A-Fa-f]{4})/.exec(rest) ??
    /^u\{([0-9A-Fa-f]{1,6})\}/.exec(rest) ??
    /^x\{([0-9A-Fa-f]{1,6})\}/.exec(rest);
  if (m) {
    r.i += m[0].length;
    return parseInt(m[1], 16);
  }
  const c = r.p[r.i++];
  return CONTROL[c] ?? c.codePointAt(0)!;
}

function parseAtom(r: Reader): Node {
  const c = r.p[r.i++];
  if (c === '(') {
    if (r.peek() === '?') {
      // (?:…), (?<name>…), (?P<name>…), inline flags (?i) — the language is the group's.
      const m = /^\?(?::|P?<[A-Za-z_]\w*>|[a-zA-Z-]*:?)/.exec(r.p.slice(r.i));
      r.i += m ? m[0].length : 1;
    }
    const inner = parseAlt(r);
    if (r.peek() === ')') r.i++;
    return inner;
  }
  if (c === '[') return parseClass(r);
  if (c === '.') return { kind: 'chars', ranges: [[10, 10]], negated: true };
  if (c === '^' || c === '$') return { kind: 'empty' };
  if (c === '\\') {
    const e = r.peek();
    if (e === 'b' || e === 'B' || e === 'A' || e === 'z') {
      r.i++;
      return { kind: 'empty' };
    }
    if (e === 'p' || e === 'P') {
      // A Unicode property: a member of the common ones (a plain character outside, negated); RE2 checks it.
      const m = /^[pP](?:\{\^?([^}]*)\}|(\w))/.exec(r.p.slice(r.i));
      r.i += m ? m[0].length : 1;
      const name = (m?.[1] ?? m?.[2] ?? 'L').replace(/^(?:gc|General_Category)=/, '');
      const inside = PROPERTY_MEMBER[name] ?? 97;
      // Outside a property: a digit outside a letter one, a letter outside any other.
      const code = (e === 'P') !== (m?.[0].startsWith('p{^') === true) ? (inside === 48 ? 97 : 48) : inside;
      return { kind: 'chars', ranges: [[code, code]], negated: false };
    }
    const cls = escapeRanges(e);
    if (cls) {
      r.i++;
      return { kind: 'chars', ...cls };
    }
    const code = escapedCode(r);
    return { kind: 'chars', ranges: [[code, code]], negated: false };
  }
  const code = c.codePointAt(0)!;
  if (code > 0xffff) r.i++;
  return { kind: 'chars', ranges: [[code, code]], negated: false };
}

function parseClass(r: Reader): Node {
  const negated = r.peek() === '^';
  if (negated) r.i++;
  const ranges: Array<[number, number]> = [];
  let first = true;
  while (!r.done() && (r.peek() !== ']' || first)) {
    first = false;
    let lo: number;
    if (r.peek() === '\\') {
      r.i++;
      const cls = escapeRanges(r.peek());
      if (cls && !cls.negated) {
        r.i++;
        ranges.push(...cls.ranges);
        continue;
      }
      if (cls) {
        // A negated shorthand inside a class: take a plain character outside it.
        r.i++;
        const pick = PLAIN.find((p) => !cls.ranges.some(([a, b]) => p >= a && p <= b))!;
        ranges.push([pick, pick]);
        continue;
      }
      lo = escapedCode(r);
    } else if (r.p.startsWith('[:', r.i)) {
      const m = /^\[:(\^?)(\w+):\]/.exec(r.p.slice(r.i));
      r.i += m ? m[0].length : 2;
      ranges.push(...(m?.[2] === 'digit' ? DIGIT : WORD));
      continue;
    } else {
      lo = r.p.codePointAt(r.i)!;
      r.i += lo > 0xffff ? 2 : 1;
    }
    let hi = lo;
    if (r.peek() === '-' && r.p[r.i + 1] !== ']' && r.i + 1 < r.p.length) {
      r.i++;
      if (r.peek() === '\\') {
        r.i++;
        hi = escapedCode(r);
      } else {
        hi = r.p.codePointAt(r.i)!;
        r.i += hi > 0xffff ? 2 : 1;
      }
    }
    ranges.push([lo, hi]);
  }
  if (r.peek() === ']') r.i++;
  return { kind: 'chars', ranges, negated };
}

function pickChar(n: Extract<Node, { kind: 'chars' }>): string {
  const inside = (c: number) => n.ranges.some(([a, b]) => c >= a && c <= b);
  const ok = (c: number) => inside(c) !== n.negated;
  const plain = PLAIN.find(ok);
  if (plain !== undefined) return String.fromCodePoint(plain);
  if (!n.negated && n.ranges.length) return String.fromCodePoint(n.ranges[0][0]);
  for (let c = 33; c < 0x3000; c++) if (ok(c)) return String.fromCodePoint(c);
  return '';
}

/** Writes the node; open quantifiers repeat min + extra times, alternations take branch `choice` at the top. */
function write(n: Node, extra: number, choice: number, top: boolean): string {
  switch (n.kind) {
    case 'empty':
      return '';
    case 'chars':
      return pickChar(n);
    case 'alt': {
      const branch = n.branches[top ? Math.min(choice, n.branches.length - 1) : 0];
      return branch.map((x) => write(x, extra, choice, top && n.branches.length === 1)).join('');
    }
    case 'repeat': {
      const times = Math.min(n.max, n.min + (n.max === Infinity || n.max - n.min > 1 ? extra : 0), n.min + MAX_EXTRA);
      return Array.from({ length: times }, () => write(n.node, extra, choice, false)).join('');
    }
  }
}

/**
 * A string the pattern matches that `accept` also takes (lengths, formats), or undefined when none
 * of the candidates tried does: the caller then refuses the schema.
 */
export function stringForPattern(pattern: string, accept: (s: string) => boolean): string | undefined {
  const tree = parseAlt(new Reader(pattern));
  const branches = tree.kind === 'alt' ? tree.branches.length : 1;
  // Shortest first: the first candidate long enough for a minLength is the one written.
  const extras = [0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, MAX_EXTRA];
  for (let choice = 0; choice < branches; choice++) {
    for (const extra of extras) {
      const s = write(tree, extra, choice, true);
      if (patternMatches(pattern, s) && accept(s)) return s;
    }
  }
  return undefined;
}
