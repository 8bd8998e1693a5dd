import { execBuilt, quote } from './caller-patterns.js';

/**
 * The values a message offers the local agent model's arguments (schema-values.ts), found by fixed
 * rules so the same message always gives the same arguments (docs/local-models.md):
 *
 * - `name: value` / `name=value` gives the property `name` that value;
 * - a value near a property's words — its name split into words, and the words of its description
 *   (three letters or more, not a common word) — the first quoted text, proper noun or number in
 *   the three words after one of them (a number also in the two words before: "4 people");
 * - otherwise, in the order the text gives them: a "quoted" text, or a proper noun (Capitalized
 *   words: "New York") or 'quoted' text after in, for, from, to, about, named or called; the word
 *   after named or called whatever its case;
 * - a number: the next number of the text.
 * A value is used once: the next property takes the next one.
 */
type Kind = 'text' | 'number';
interface Span {
  at: number;
  end: number;
  kind: Kind;
  value: string;
}

const STOP = new Set(
  'the a an of to in for from and or with is are be by on at as this that it its which what who when where how your you our their his her any all each one name value text string number given named about into should will can'.split(
    ' ',
  ),
);
const PHRASE =
  /(?:^|[^\p{L}\p{N}_])(?:[Ii]n|[Ff]or|[Ff]rom|[Tt]o|[Aa]bout|[Nn]amed|[Cc]alled)\s+(?:"([^"]*)"|'([^']*)'|(\p{Lu}[\p{L}\p{M}\p{N}'’.-]*(?:[ \t]+\p{Lu}[\p{L}\p{M}\p{N}'’.-]*)*))/gu;
const AFTER_NAMED = /(?:^|[^\p{L}\p{N}_])(?:[Nn]amed|[Cc]alled)\s+([^\s"',;!?]+)/gu;
const GIVEN = /[\p{L}\p{N}_-]+\s*[:=]\s*(?:"[^"]*"|'[^']*'|[^\s,;]+)/gu;
const TOKEN =
  /"([^"]*)"|(-?\d+(?:\.\d+)?)|(\p{Lu}[\p{L}\p{M}\p{N}'’-]*(?:[ \t]+\p{Lu}[\p{L}\p{M}\p{N}'’-]*)*)|([\p{L}\p{N}_'’-]+)/gu;

const trimEnd = (s: string) => s.replace(/[.?!)]+$/, '');
/** A name's words: snake_case, kebab-case and camelCase split, lower case. */
export const wordsOf = (s: string) =>
  s
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 3 && !STOP.has(w));

export class TextSource {
  /** Quoted texts, phrases and numbers outside `name: value` pairs, in text order. */
  private readonly free: Span[] = [];
  /** Every token, for the "near a property's words" rule. */
  private readonly tokens: Array<Span & { word?: string }> = [];
  private readonly used = new Set<number>();
  private readonly givenByName = new Map<string, string | undefined>();

  constructor(readonly text: string) {
    const taken: Array<[number, number]> = [...text.matchAll(GIVEN)].map((m) => [m.index, m.index + m[0].length]);
    const outside = (at: number) => !taken.some(([a, b]) => at >= a && at < b);
    const add = (s: Span) => {
      if (outside(s.at) && !this.free.some((f) => f.at === s.at)) this.free.push(s);
    };
    for (const m of text.matchAll(PHRASE)) {
      const value = m[1] ?? m[2] ?? trimEnd(m[3]);
      const at = m.index + m[0].length - m[0].replace(/^.*?\s+(?=["'\p{Lu}])/su, '').length;
      add({ at, end: m.index + m[0].length, kind: 'text', value });
    }
    for (const m of text.matchAll(AFTER_NAMED))
      add({ at: m.index + m[0].length - m[1].length, end: m.index + m[0].length, kind: 'text', value: trimEnd(m[1]) });
    for (const m of text.matchAll(TOKEN)) {
      const span = { at: m.index, end: m.index + m[0].length };
      if (m[1] !== undefined) add({ ...span, kind: 'text', value: m[1] });
      if (m[2] !== undefined) add({ ...span, kind: 'number', value: m[2] });
      if (m[1] !== undefined || m[2] !== undefined)
        this.tokens.push({ ...span, kind: m[1] !== undefined ? 'text' : 'number', value: m[1] ?? m[2] });
      else if (m[3] !== undefined)
        this.tokens.push({ ...span, kind: 'text', value: trimEnd(m[3]), word: m[3].toLowerCase() });
      else this.tokens.push({ ...span, kind: 'text', value: '', word: m[4].toLowerCase() });
    }
    this.free.sort((a, b) => a.at - b.at);
  }

  /** The value the text gives a property as `name: value` or `name=value` (asked twice per property, found once). */
  given(name: string): string | undefined {
    if (!this.givenByName.has(name)) this.givenByName.set(name, this.find(name));
    return this.givenByName.get(name);
  }

  private find(name: string): string | undefined {
    // RE2 (no lookbehind): the name starts the text or follows a character that is not part of a name.
    const m = execBuilt(`(?:^|[^\\w-])${quote(name)}\\s*[:=]\\s*(?:"([^"]*)"|'([^']*)'|([^\\s,;]+))`, this.text, {
      ignoreCase: true,
    });
    if (!m) return undefined;
    return m[1] ?? m[2] ?? trimEnd(m[3]);
  }

  /** The first unused value of the kind near one of the words (see the rule above), marked used. */
  near(words: string[], kind: Kind, accept: (v: string) => boolean): string | undefined {
    if (words.length === 0) return undefined;
    const want = new Set(words);
    for (let i = 0; i < this.tokens.length; i++) {
      const token = this.tokens[i];
      const split = token.word?.split(/\s+/) ?? [];
      const hit = split.findIndex((x) => want.has(x));
      if (hit < 0) continue;
      // The word opens a run of Capitalized words ("Arrival Rome"): the rest of the run is the value.
      if (kind === 'text' && hit < split.length - 1 && !this.used.has(token.at)) {
        const rest = token.value
          .split(/[ \t]+/)
          .slice(hit + 1)
          .join(' ');
        if (accept(rest)) {
          this.used.add(token.at);
          return rest;
        }
      }
      const around = kind === 'number' ? [i + 1, i - 1, i + 2, i - 2, i + 3] : [i + 1, i + 2, i + 3];
      for (const j of around) {
        const t = this.tokens[j];
        if (
          !t ||
          this.used.has(t.at) ||
          t.kind !== kind ||
          t.value === '' ||
          want.has(t.word ?? '') ||
          !accept(t.value)
        )
          continue;
        // A capitalized word is a proper noun only when it does not start the text or a sentence.
        if (t.word !== undefined && /(^|[.!?]\s*)$/.test(this.text.slice(0, t.at))) continue;
        this.used.add(t.at);
        return t.value;
      }
    }
    return undefined;
  }

  /** The next unused quoted text or phrase (see the rule above) that `accept` takes, marked used. */
  nextText(accept: (v: string) => boolean): string | undefined {
    return this.take('text', accept);
  }

  nextNumber(accept: (v: string) => boolean): string | undefined {
    return this.take('number', accept);
  }

  private take(kind: Kind, accept: (v: string) => boolean): string | undefined {
    const s = this.free.find((f) => f.kind === kind && !this.used.has(f.at) && accept(f.value));
    if (!s) return undefined;
    this.used.add(s.at);
    return s.value;
  }

  mentions(word: string): boolean {
    return execBuilt(`(?:^|[^\\w-])${quote(word)}(?:$|[^\\w-])`, this.text, { ignoreCase: true }) !== null;
  }
}
