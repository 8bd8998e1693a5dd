import {
  isFlag,
  katakanaStem,
  methodNames,
  negatedTerms,
  symbolsOf,
  termsOf,
  letterName,
  namedLetters,
  versionedName,
} from '../../text/terms.js';
import { isSpaceless, words as segmentWords } from '../../text/segment.js';
import { headingKey, quotedNames } from '../../text/quoted.js';
import { documentUnits, type DocUnit } from '../../text/units.js';
import { infinitiveOf, inDocumentWords } from '../../text/verbs.js';
import { oneSpelling } from '../../text/spelling.js';
import { isEnglishWord, isRareInEnglish } from '../../text/english-frequency.js';
import { PARAMS } from './model-params.js';

/** A retrieved passage the answer may cite as [ref]. */
export interface Passage {
  ref: number;
  title: string;
  link: string;
  content: string;
  /** Whether the passage opens its source (one of its first chunks): where it says what it is. */
  opening?: boolean;
}

/** A document unit of a passage, with its fields' terms: what the model scores. */
export interface RankedUnit extends DocUnit {
  ref: number;
  title: string;
  /** Position over all passages, so ties keep the sources' order. */
  seq: number;
  fields: { text: Set<string>; key: Set<string>; context: Set<string>; headings: Set<string>; title: Set<string> };
  /** Number of terms of the unit's text: BM25's length. */
  length: number;
  /** Its words in all fields without their inflection (inflectionless): what it says as written. */
  forms: Set<string>;
  /** Whether it comes from the passage that opens its source. */
  opening: boolean;
}

export interface UnitIndex {
  units: RankedUnit[];
  /** Inverse frequency of each term over the units. */
  idf: (term: string) => number;
  /** The inverse frequency of a term no unit holds: the most a term weighs. */
  rarest: number;
  /** Whether some unit holds the term in any field; with `ref`, some unit of that source. */
  holds: (term: string, ref?: number) => boolean;
  /** Whether some unit (of source `ref`, when given), its title or its headings write these letters and digits in a row, whatever the marks between. */
  writes: (bare: string, ref?: number) => boolean;
  meanLength: number;
}

const GROUPS_PER_PASSAGE = 1_000_000;

type Field = keyof RankedUnit['fields'];
const FIELDS: Field[] = ['text', 'key', 'context', 'headings', 'title'];

/** A sentence stating a default without naming whose: "It defaults to `SAMEORIGIN`.", "Defaults to '100kb'." */
const SUBJECTLESS_DEFAULT = /^(?:(?:It|This)\s+defaults\b|Defaults?\s+(?:to|is)\b)/;

/** The first sentence of a unit's paragraph, when the unit is a later one of it. */
const openingOf = (units: RankedUnit[], u: { group: number; kind: string }) => {
  const first = units.find((x) => x.group === u.group && x.kind === 'sentence');
  return first?.text ?? '';
};

/** The passages' units, each thing a source says once (a sentence repeated across its passages is kept at its first place). */
export function indexPassages(passages: Passage[]): UnitIndex {
  const units: RankedUnit[] = [];
  const seen = new Set<string>();
  // Over all of a source's passages: each names it as the others do.
  const asWritten = new Map<number, string>();
  for (const p of passages)
    asWritten.set(p.ref, `${asWritten.get(p.ref) ?? ''} ${titleAsWritten(p.title, p.content).join(' ')}`);
  for (const [at, p] of passages.entries()) {
    const title = new Set(termsOf(`${p.title} ${asWritten.get(p.ref)}`));
    for (const unit of documentUnits(p.content)) {
      // Groups are numbered per passage; several passages may come from one source.
      const u = { ...unit, group: at * GROUPS_PER_PASSAGE + unit.group };
      // A property is said once per subject: "Default: undefined" of one option is not another's;
      // and once per source: paste's `-z` is not comm's, though both say "line delimiter is NUL".
      // A sentence under an API's name is that name's: cursorUp's "Default is `1`." is not cursorForward's.
      // And a sentence under a heading is that section's: a FAQ answers "Yes." to several of its questions.
      // A row is its table's: "64045 | ceph" is a uid in one table, a gid in the next.
      // And an item is its lead-in's: genSalt's `rounds` parameter is not genSaltSync's.
      const section =
        u.kind === 'sentence'
          ? u.headings.join('\n')
          : u.kind === 'row'
            ? (u.header ?? []).map((h) => h.text).join('|')
            : u.kind === 'item'
              ? (u.leadIn ?? '')
              : '';
      const key = `${p.ref}:${u.kind}:${u.subject ?? u.termMarkdown ?? ''}:${section}:${u.text.toLowerCase().replace(/\s+/g, ' ').trim()}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const said = u.kind === 'definition' ? (u.description ?? u.text) : u.text;
      const own = [...new Set([...termsOf(said), ...negatedTerms(said)])];
      // What the unit is about, as a row's key names its row: a definition's term, a row's first
      // cell, the heading a `Default: …` line opening its section belongs to.
      const about = u.term ?? (u.kind === 'row' ? u.rowKey : u.subject && `${u.subject} ${u.name ?? ''}`) ?? '';
      const context = [
        u.kind === 'row' ? u.header?.map((h) => h.text).join(' ') : '',
        u.leadIn,
        u.caption,
        // A unit about a name written as a call (`uuid.v4()`) is about a function, whether or not it says so.
        CALL.test(about) ? 'function method' : '',
        // So is a unit about a flag (`-s, --signal=SIGNAL`) about an option.
        isFlag(about) ? 'option flag' : '',
        // A unit stating a version number ("Using Node v10.13.0") says which version.
        VERSION.test(u.text) ? 'version' : '',
        // `npm i dedent` and `yarn add dedent` install it, though neither says "install".
        INSTALL_COMMAND.test(u.text) ? 'install' : '',
        // `lighten: function(amount = 10)` gives amount's default, though it does not say "default".
        PARAMETER_DEFAULT.test(u.text) ? 'default' : '',
        // "It defaults to 365 days." states the default of what its paragraph opens on (`maxAge`).
        u.kind === 'sentence' && SUBJECTLESS_DEFAULT.test(u.text) ? openingOf(units, u) : '',
      ]
        .filter(Boolean)
        .join(' ');
      units.push({
        ...u,
        ref: p.ref,
        title: p.title,
        opening: p.opening === true,
        seq: units.length,
        fields: {
          text: new Set(own),
          key: new Set([...termsOf(about), ...letterName(about)]),
          context: new Set(termsOf(context)),
          headings: new Set(termsOf(u.headings.join(' '))),
          title,
        },
        length: Math.max(1, own.length),
        forms: new Set(wordsOf([u.text, about, context, u.headings.join(' '), p.title].join(' ')).map(inflectionless)),
      });
    }
  }
  const df = new Map<string, number>();
  const bySource = new Map<number, Set<string>>();
  for (const u of units) {
    // A source's name counts too: in its every unit, "commander" tells nothing apart within it.
    const all = new Set(FIELDS.flatMap((f) => [...u.fields[f]]));
    for (const t of all) df.set(t, (df.get(t) ?? 0) + 1);
    const source = bySource.get(u.ref) ?? new Set<string>();
    for (const t of all) source.add(t);
    bySource.set(u.ref, source);
  }
  const n = units.length;
  const idf = (t: string) => {
    const d = df.get(t) ?? 0;
    return Math.log(1 + (n - d + 0.5) / (d + 0.5));
  };
  const meanLength = n ? units.reduce((s, u) => s + u.length, 0) / n : 1;
  const holds = (t: string, ref?: number) => (ref === undefined ? df.has(t) : (bySource.get(ref)?.has(t) ?? false));
  const writes = (bare: string, ref?: number) =>
    units.some(
      (u) =>
        (ref === undefined || u.ref === ref) && [u.text, u.title, ...u.headings].some((t) => bareOf(t).includes(bare)),
    );
  return { units, idf, rarest: idf(''), holds, writes, meanLength };
}

/**
 * The source's name as its text writes it: "Day.js" in dayjs-readme, "SonicBoom" in sonic-boom. Its
 * terms name the source as its title does.
 */
function titleAsWritten(title: string, content: string): string[] {
  const names = new Set([
    bareOf(title),
    ...title
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length >= 3),
  ]);
  const out = new Set<string>();
  for (const token of content.match(/[\p{L}\p{N}][\p{L}\p{N}._/-]*[\p{L}\p{N}]/gu) ?? [])
    if (names.has(bareOf(token))) out.add(token);
  return [...out];
}

/**
 * The verbs a question is phrased with ("which option makes sort…", "how do I use…"): searched for,
 * but not what it asks about, so a source need not hold them to cover it.
 */
const LIGHT_VERBS = new Set(
  termsOf(
    'make makes making made use uses using get gets getting want need let happen happens call calls calling take takes taking put puts putting keep keeps keeping kept turn turns turning turned give gives giving gave handle handles handling handled hold holds holding held look looks looking looked up go goes going went leave leaves leaving back away 使い 使う',
  ),
);

/**
 * "What does %i mean?" asks what %i is: its definition says so without the word, as "PAM
 * (Pluggable Authentication Modules)" says what PAM stands for. "Which X corresponds to Y?" asks
 * for what stands beside Y: a table's row says so by its columns.
 */
const UNASKED = new Set(
  termsOf('mean means meant meaning stand stands correspond corresponds corresponding equivalent instead rather'),
);

/**
 * "Does X support Y?" asks about Y: a source says "supports" of many things, so a unit holding the
 * verb and nothing else asked covers nothing.
 */
const CAPABILITY = new Set(termsOf('support supports supported supporting'));

/**
 * Words a source may never write of what a question asks about: its kind (a function, an option,
 * "which kinds of…", "which build tool"), or the state asked of it ("Is X enabled by default?", which `default: false`
 * answers), or the unit a figure is in ("What unit is interval in?", which "in milliseconds" answers).
 */
const KINDS = new Set(
  termsOf('function method option flag parameter argument property enabled disabled unit kind tool library package'),
);

/** Measures asked by "How big/large/small…": what a size is. */
const SIZE_WORDS = new Set(['big', 'large', 'small', 'tiny', 'heavy']);

const [DEFAULT] = termsOf('default');
const INSTEAD_OF = /\binstead of\b/i;

/** The terms a question part searches for, each with its weight (a thread's earlier terms weigh less). */
export type Query = Map<string, number>;

export function queryOf(asked: string, history: string[] = []): Query {
  const text = inDocumentWords(asked);
  const q: Query = new Map(termsOf(text).map((t) => [t, LIGHT_VERBS.has(t) ? PARAMS.lightVerb : 1]));
  for (const t of namedLetters(text)) q.set(t, 1);
  for (const t of termsOf(history.join(' '))) if (!q.has(t)) q.set(t, PARAMS.history);
  METHODS.set(q, new Set(methodNames(text).filter((t) => !q.has(t))));
  CALLS.set(
    q,
    [...asked.matchAll(WRITTEN_CALL)].map((m) => squashed(m[0])),
  );
  const forms = new Map<string, Set<string>>();
  const rare = new Set<string>();
  for (const w of wordsOf(text))
    for (const t of termsOf(w)) {
      forms.set(t, (forms.get(t) ?? new Set()).add(inflectionless(w)));
      if (isRareInEnglish(w)) rare.add(t);
    }
  FORMS.set(q, forms);
  RARE.set(q, rare);
  VERBS.set(q, new Set(termsOf([...text.matchAll(MAIN_VERB)].map((m) => m[1]).join(' '))));
  const measures = [...text.matchAll(MEASURE)].map((m) => m[1].toLowerCase());
  MEASURES.set(q, new Set(termsOf(measures.join(' '))));
  // "How big is mitt?" asks for a size: the words a size is stated in are searched for, lightly.
  if (measures.some((m) => SIZE_WORDS.has(m)))
    for (const t of termsOf('size bytes')) if (!q.has(t)) q.set(t, PARAMS.lightVerb);
  const choice = CHOICE.exec(text);
  const [a, b] = choice ? [termsOf(choice[1]), termsOf(choice[2])] : [[], []];
  if (a.length > 0 && b.length > 0 && !a.some((t) => b.includes(t))) ALTERNATIVES.set(q, [a, b]);
  return q;
}

/**
 * A method the query names in words ("to hiragana" for `jaconv.toHiragana(s)`): it names a unit
 * whose name or heading it is, as a phrasing word would; in code or prose it is another thing.
 */
const METHODS = new WeakMap<Query, Set<string>>();

/**
 * A call the question writes out with its arguments (`dequal(1, '1')`): a phrase, found in a line
 * writing it as written (spacing aside), which is what the question is about.
 */
const CALLS = new WeakMap<Query, string[]>();
const WRITTEN_CALL = /[\p{L}_$][\p{L}\p{N}_$.]*\([^()\s][^()]*\)/gu;
const squashed = (text: string) => text.replace(/\s+/g, '');

/** Whether the query names a method in words ("to hiragana") that is this term (`tohiragana`). */
export const namesMethod = (q: Query, term: string) => METHODS.get(q)?.has(term) ?? false;

/**
 * "How" and the measure it asks for (fast, long, big): not an auxiliary ("how do I"), "to", nor
 * "much" or "many", which ask an amount of the word after them.
 */
const MEASURE =
  /\bhow\s+(?!(?:do|does|did|can|could|should|would|will|is|are|was|were|to|i|we|you|they|it|much|many)\b)(\p{L}+)/giu;

/**
 * A question ending in a choice of two words ("Is Chalk 5 CommonJS or ESM?", "base-10 or base-2 by
 * default?"): a source holding either answers it.
 */
const CHOICE = /([\p{L}\p{N}][\w.+#-]*)\s+or\s+([\p{L}\p{N}][\w.+#-]*)(?:\s+\p{Ll}+){0,3}\s*[?？]\s*$/u;

/** The two words a query offers as a choice, as terms: held as one, by whichever a unit holds. */
const ALTERNATIVES = new WeakMap<Query, [string[], string[]]>();

/**
 * The question's own verb, after its auxiliary and subject ("where does debug *write*", "how do I
 * *put*"): what a source says in other words ("log", "use") more often than the thing asked about.
 */
const MAIN_VERB =
  /\b(?:do|does|did|can|could|should|would|will)\s+(?:I|you|we|they|it|one|(?:(?:a|an|the|my|its|this)\s+)?[\w.'’-]+)\s+([a-z]+)\b/gi;

/** The terms of a query naming the measure it asks for ("how fast"). */
const MEASURES = new WeakMap<Query, Set<string>>();

/** The terms of a query that are its main verb. */
const VERBS = new WeakMap<Query, Set<string>>();

/** The terms of a query written as words rare in everyday English ("lookbehind", "comma"): see coverage. */
const RARE = new WeakMap<Query, Set<string>>();

/** The words a query's terms were stemmed from, as inflectionless forms: "completion" for complet. */
const FORMS = new WeakMap<Query, Map<string, Set<string>>>();

/** Words written in letters (no CJK), with the parts of those in camel case ("DailyRotateFile"). */
function wordsOf(text: string): string[] {
  const out: string[] = [];
  for (const w of text.match(/[\p{L}\p{M}]+/gu) ?? []) {
    if (isSpaceless(w)) continue;
    out.push(w);
    if (/\p{Ll}\p{Lu}/u.test(w)) out.push(...(w.match(/\p{Lu}?\p{Ll}+|\p{Lu}+(?!\p{Ll})/gu) ?? []));
  }
  return out;
}

/**
 * A word without its inflection (a plural, -ed, -ing, a final e): "rotates", "rotated" and
 * "rotate" are one word; "symbolic" and "symbols", or "completion" and "complete", one stem to
 * Porter's stemmer, are not.
 */
export function inflectionless(word: string): string {
  let w = infinitiveOf(oneSpelling(word.toLowerCase()));
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(?:sh|ch|x|z|ss)es$/.test(w)) w = w.slice(0, -2);
  else if (/[^su]s$/.test(w) && w.length > 3) w = w.slice(0, -1);
  if (/(?:ing|ed)$/.test(w) && w.length > 5) w = w.replace(/(?:ing|ed)$/, '');
  return w.replace(/e$/, '');
}

/**
 * BM25F: each term's pseudo-frequency is the weighted sum over the unit's fields (its text
 * normalised by length), saturated by k1 and weighted by the term's rarity.
 */
export function score(u: RankedUnit, q: Query, index: UnitIndex): number {
  const { b, weights } = PARAMS;
  const norm = 1 - b + (b * u.length) / index.meanLength;
  const fields = FIELDS.map((f): [Set<string>, number] => [u.fields[f], weights[f] / (f === 'text' ? norm : 1)]);
  let s = bm25(q, index, fields);
  for (const t of METHODS.get(q) ?? [])
    if (u.fields.key.has(t) || u.fields.headings.has(t)) s += PARAMS.lightVerb * index.idf(t);
  const calls = CALLS.get(q) ?? [];
  if (calls.length > 0 && calls.some((c) => squashed(u.text).includes(c))) s += index.rarest;
  // A unit whose key the question names (the term it defines, its row's key) is what it asks about.
  const key = u.fields.key;
  if (s > 0 && key.size > 0) {
    let named = 0;
    for (const t of key) if ((q.get(t) ?? 0) >= 1) named++;
    s *= 1 + (PARAMS.keyNamed * named) / key.size;
  }
  return s;
}

/**
 * Each query term's weight times its rarity, saturated by k1 over its pseudo-frequency: the sum of
 * the weights of the fields holding it.
 */
function bm25(q: Query, index: UnitIndex, fields: Array<[Set<string>, number]>): number {
  const { k1 } = PARAMS;
  let s = 0;
  for (const [t, w] of q) {
    const tf = fields.reduce((sum, [terms, weight]) => sum + (terms.has(t) ? weight : 0), 0);
    if (tf > 0) s += w * index.idf(t) * ((tf * (k1 + 1)) / (tf + k1));
  }
  return s;
}

/** Whether a unit holds a term in any field. */
export const holdsTerm = (u: RankedUnit, t: string) => FIELDS.some((f) => u.fields[f].has(t));

/** Whether a unit itself says a term (its text or its key), not only a heading or title above it. */
export const saysTerm = (u: RankedUnit, t: string) => u.fields.text.has(t) || u.fields.key.has(t);

/**
 * Whether a question asks nothing of a unit but what it is: each of its terms names the unit (its
 * term, its source) or the kind of thing it is ("What does wget's -c option do?").
 */
export const asksWhatItIs = (u: RankedUnit, q: Query) =>
  keyTerms(q).every((t) => u.fields.key.has(t) || u.fields.title.has(t) || KINDS.has(t) || UNASKED.has(t));

/** A part's own terms, not those it carries as context (a thread's, a phrasing verb's). */
export const keyTerms = (q: Query) => [...q].filter(([, w]) => w >= 1).map(([t]) => t);

/** The units of `u`'s group (its paragraph, definition, code block, list or table), of one kind when given. */
export const groupOf = (u: RankedUnit, index: UnitIndex, kind?: RankedUnit['kind']) =>
  index.units.filter((x) => x.ref === u.ref && x.group === u.group && (!kind || x.kind === kind));

/**
 * The share of the question's key terms that one unit holds in any field, each term weighted by its
 * rarity over the sources' units: how much of the question it is about. A term no unit holds weighs most, so a question about something the
 * sources never name ("threads", "GPU") is not covered by units that share its common words.
 */
export function coverage(u: RankedUnit, q: Query, index: UnitIndex): number {
  const code = u.kind === 'code' || u.kind === 'codeLine';
  // The words naming the unit's own source pick the source, not what in it answers: any sentence
  // of http-errors holds "http-errors", none of them a "request timeout". Unless they are all it asks.
  // A title word counts too when the source is small: in a note on kettles, "kettle" is what each is about.
  const named = (t: string) => u.fields.title.has(t) && index.units.length > SMALL_SOURCE;
  // "How fast" asks for a figure: a source that never says "fast" states it as one ("~320 Mb/s").
  // So with a word naming what kind of thing is asked ("ini's safe function"): a source may never say it.
  // "Use PREFIX instead of 'xx'" states the default without the word.
  const unsaid = (t: string) =>
    ((MEASURES.get(q)?.has(t) || KINDS.has(t)) && !index.holds(t, u.ref)) || (t === DEFAULT && INSTEAD_OF.test(u.text));
  // A Chinese question about English sources is covered only through the English words the
  // glossary gives its Chinese ones: its other words no English source holds, so they count missing.
  // A word the source need not write asks nothing more than its name: "How big is mitt?" is mitt's.
  // Nor does "supported" ask more: "Which kinds of Chinese numbers are supported?" asks what
  // chinese-numbers-converter is about. Nor "mean" ("What does the name chokidar mean?").
  const asksMore = [...q].some(([t, w]) => w >= 1 && !named(t) && !unsaid(t) && !CAPABILITY.has(t) && !UNASKED.has(t));
  const forms = FORMS.get(q);
  let have = 0;
  let all = 0;
  let more = false;
  // Of a choice, the alternative the unit holds (or, holding neither, the first) stands for both.
  const choice = ALTERNATIVES.get(q);
  const holds = (terms: string[]) => terms.some((t) => holdsTerm(u, t));
  const other = new Set(choice ? (holds(choice[1]) ? choice[0] : choice[1]) : []);
  for (const [t, w] of q) {
    if (w < 1 || (asksMore && named(t)) || other.has(t) || UNASKED.has(t)) continue;
    if (unsaid(t)) continue;
    // A term the unit's own source never holds weighs as one no source holds: the answer comes from
    // one source, and what it does not hold (cmp says nothing of directories) it cannot answer.
    // Not the question's own verb: "write" is asked where a source says "log". A missing word rare
    // in everyday English weighs more: it names what is asked ("lookbehind", "email"), where a
    // missing common word ("stop", "middle") is more often said in other words.
    const rarity =
      index.holds(t, u.ref) || VERBS.get(q)?.has(t)
        ? index.idf(t)
        : index.rarest * (RARE.get(q)?.has(t) ? PARAMS.rareAbsent : 1);
    all += rarity;
    if (code && CODE_WORDS.has(t)) {
      have += rarity;
      more = true;
    } else if (holdsTerm(u, t)) {
      more ||= !CAPABILITY.has(t);
      // A word held only through its stem ("complete" for "completion") is another word, half the time.
      const asked = forms?.get(t);
      have += !asked || [...asked].some((f) => u.forms.has(f)) ? rarity : rarity * PARAMS.stemOnly;
    }
  }
  return all === 0 || !more ? 0 : have / all;
}

/**
 * A sentence of prose: a few words joined by a function word ("&" is "and": "Throttle
 * promise-returning & async functions"), not a row of badge labels ("version test status coverage");
 * in Chinese or Japanese, four words or more, as its segmenter finds them.
 * A source whose first one leads into what follows (":") says no "what".
 */
export const isProseSentence = (text: string) =>
  isSpaceless(text)
    ? segmentWords(text).length >= 4
    : text.split(/\s+/).length >= 4 && /\b(?:the|an?|is|are|for|of|to|and|or|in|with|on|by|from)\b|\s&\s/i.test(text);

/**
 * The opening paragraph of the section whose own heading asks what the part asks (a FAQ's "Can
 * Valgrind attach to a running program?", a how-to's title): the heading holds at least
 * PARAMS.headingAnswers of the part's key-term weight, two terms or more. Undefined when no heading
 * does, when that section opens with something other than prose, or when it is not `within` the
 * units given (a section the question names is where the answer is).
 */
export function answeringSection(
  index: UnitIndex,
  q: Query,
  used: Set<RankedUnit>,
  within?: Set<RankedUnit>,
): { units: RankedUnit[]; share: number } | undefined {
  const firsts = new Map<string, RankedUnit>();
  for (const u of index.units) {
    const key = `${u.ref}:${u.headings.join('\n')}`;
    if (u.headings.length > 0 && !firsts.has(key)) firsts.set(key, u);
  }
  let best: { first: RankedUnit; share: number; size: number } | undefined;
  const askedForms = new Set([...(FORMS.get(q)?.values() ?? [])].flatMap((forms) => [...forms]));
  for (const first of firsts.values()) {
    const own = new Set(termsOf(first.headings.at(-1)!));
    // A heading stating a figure the part does not ask ("1文の長さは100文字以下とする") answers it; it
    // asks nothing. A FAQ's number ("19. Ok, so why…") is no figure.
    const figures = termsOf(first.headings.at(-1)!.replace(/^\s*\d+(?:\.\d+)*[.)]\s+/, ''));
    if (figures.some((t) => /\d/.test(t) && !q.has(t))) continue;
    const share = heldShare(own, q, index);
    const count = keyTerms(q).filter((t) => own.has(t)).length;
    // Of headings asking as much, the one saying least besides asks it: OVERFLOW, not OVERFLOW_PRIORITY.
    const better = !best || share > best.share || (share === best.share && own.size < best.size);
    // A heading of one word asks the part when it is all the part asks besides its source's name
    // and the kind of thing it is (segmentit's "Optimizer 是什么", morgan's "immediate option"): two
    // words or more otherwise, as one word is often a label.
    // Its word as asked, not another of its stem: "Performant" is not "Performance".
    // And its opening names it, as a definition does ("Optimizer 是在分词结束后…"): a "Features"
    // section opening "tern is a small task runner" leads into its list. Unless the part says what
    // kind of thing the heading names: morgan's "immediate" option opens "Write log line on request…".
    const kind = keyTerms(q).some((t) => KINDS.has(t) && !own.has(t));
    const whole =
      count === own.size &&
      ([...own].every((t) => first.fields.text.has(t)) || kind) &&
      [...q].every(
        ([t, w]) => w < 1 || own.has(t) || first.fields.title.has(t) || KINDS.has(t) || (kind && saysTerm(first, t)),
      ) &&
      wordsOf(first.headings.at(-1)!).every((w) => askedForms.has(inflectionless(w)));
    const enough = share >= PARAMS.headingAnswers || (whole && kind);
    if ((count >= 2 || whole) && enough && better) best = { first, share, size: own.size };
  }
  if (!best || best.first.kind !== 'sentence' || used.has(best.first) || (within && !within.has(best.first)))
    return undefined;
  const { ref } = best.first;
  const units = groupOf(best.first, index, 'sentence');
  // A paragraph leading into what follows ("The meaning of CONNECT, from RFC 7231:") says no answer itself.
  if (/[:：]\s*$/.test(units.at(-1)!.text)) return undefined;
  // Nor does one that says less of the heading's question than a later unit of the section: under
  // "Default for DIR_MODE", "DIR_MODE defaults to 0700" answers, not what DIR_MODE is.
  const heading = termsOf(best.first.headings.at(-1)!);
  const asked = keyTerms(q).filter((t) => heading.includes(t));
  const says = (u: RankedUnit, terms = asked) => terms.every((t) => saysTerm(u, t));
  const section = best.first.headings.join('\n');
  const inSection = index.units.filter((u) => u.ref === ref && u.headings.join('\n') === section);
  if (inSection.some((u) => says(u)) && !units.some((u) => says(u))) return undefined;
  // So with what the part asks beyond the heading ("the default of maxGlobstarRecursion"): said by
  // a later unit ("The default of `200` is…") or by another section ("the default limit in
  // findUpMultiple": `limit`'s "Default: `Infinity`"), not by the opening.
  const more = keyTerms(q).filter((t) => !heading.includes(t) && !best.first.fields.title.has(t) && !KINDS.has(t));
  const elsewhere = (u: RankedUnit) =>
    u.ref === ref &&
    u.kind !== 'code' &&
    u.kind !== 'codeLine' &&
    more.every((t) => says(u, [t]) || termsOf(u.headings.at(-1) ?? '').includes(t));
  if (more.length > 0 && index.units.some(elsewhere) && !units.some((u) => more.some((t) => says(u, [t]))))
    return undefined;
  // A section opening with labels ("*Optional*", "Type: `(key, value) => void`") opens with no
  // answer; one opening "No." does.
  if (!units.some((u) => isProseSentence(u.text) || /[.!?。！？]$/.test(u.text.trim()))) return undefined;
  return { units, share: best.share };
}

/** The share of a part's key-term weight (by rarity) that a set of terms holds. */
function heldShare(terms: Set<string>, q: Query, index: UnitIndex): number {
  let held = 0;
  let all = 0;
  for (const [t, w] of q) {
    if (w < 1) continue;
    all += index.idf(t);
    if (terms.has(t)) held += index.idf(t);
  }
  return all === 0 ? 0 : held / all;
}

/**
 * The units of a section a part names by its heading, in quotes ("under 'Run Tests'", 「Monorepo
 * 开发」), subsections included: where the part says its answer is. A heading written as the quote
 * is one; failing that, the shortest heading holding the quote. Undefined when no quote names one.
 */
export function quotedSection(index: UnitIndex, part: string): Set<RankedUnit> | undefined {
  const names = quotedNames(part);
  if (names.length === 0) return undefined;
  const headings = new Map<string, string>();
  for (const u of index.units) for (const h of u.headings) headings.set(h, headingKey(h));
  const matched = new Set<string>();
  for (const name of names) {
    const exact = [...headings].filter(([, key]) => key === name).map(([h]) => h);
    const holding = [...headings].filter(([, key]) => name.length >= 3 && key.includes(name));
    const shortest = holding.sort((a, b) => a[1].length - b[1].length)[0]?.[0];
    for (const h of exact.length ? exact : shortest ? [shortest] : []) matched.add(h);
  }
  if (matched.size === 0) return undefined;
  return new Set(index.units.filter((u) => u.headings.some((h) => matched.has(h))));
}

/**
 * A Latin-script name and a number written as one word, joined or not by a mark: HTTP/3, TLS1.3,
 * UTF-8. Not a version (9.x, 2.1KB), which starts with its number.
 */
const JOINED = /^(?=.*\d)[a-z][a-z\d]*(?:[-/._][a-z\d]+)*$/i;

/**
 * Words joined by hyphens, not all of them English ("async-retry", not "long-term"), or each
 * capitalised (a header: "If-Range", "Content-Type"): a name.
 */
const isHyphenName = (w: string) =>
  /^\p{L}+(?:-\p{L}+)+$/u.test(w) &&
  (!w.split('-').every(isEnglishWord) || /^\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}*)+$/u.test(w));

/** A word without the possessive it is written with ("async-retry's"). */
const unowned = (w: string) => w.replace(/['’]s$/u, '');

/** Letters and digits only, lower case: a text as written, whatever its marks and spacing. */
export const bareOf = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** Fewer units than this and a source's name is what its sentences are about (see coverage). */
const SMALL_SOURCE = 12;

/** A command installing a package without saying "install": `npm i dedent`, `yarn add dedent`. */
const INSTALL_COMMAND = /\b(?:(?:npm|pnpm|cnpm)\s+(?:i|add)|(?:yarn|bun)\s+(?:global\s+)?add)\s/;
/** A parameter given a value in a call's signature: `function(amount = 10)`, `analogous(results = 6, …)`. */
const PARAMETER_DEFAULT = /[\p{L}\p{N}_$]\s*\((?:[^()]*,)?\s*[\p{L}_$][\p{L}\p{N}_$]*\s*=\s*[^\s=,()][^,()]*[,)]/u;
/** A version number: `v10.13.0`, `v3`, `2.1.35`; not a decimal (0.369ms) nor an address (127.0.0.1). */
const VERSION = /(?<![\w.])(?:v\d+(?:\.\d+)*|\d+\.\d+\.\d+)(?![\w.]*\d)/;

/** A name written as a call: `uuid.v4()`, `bytes.parse(string value)`, `.option()`. */
const CALL = /[\p{L}\p{N}_$]\(/u;

/**
 * Words naming code as the answer's form ("what command…"): a code block is one, whether or not it
 * says so. And what a call gives ("What does slugify('…') return?"): an example shows it.
 */
const CODE_WORDS = new Set(
  termsOf('command commands code example snippet syntax return returns output outputs 命令 代码 コマンド'),
);

/**
 * The groups (a list, a table, a code block, a run of definitions) ranked for a list question: a
 * list's items rarely hold the question's words, its lead-in and headings do, so a group scores by
 * those first and by its items' text a little (PARAMS.groupText).
 */
export function rankGroups(index: UnitIndex, q: Query): Array<{ units: RankedUnit[]; s: number }> {
  const groups = new Map<string, RankedUnit[]>();
  for (const u of index.units) {
    // Prose is listed by its section: the paragraphs under one heading are one run of points.
    const key =
      u.kind === 'sentence' && !u.term
        ? u.headings.length > 0
          ? `${u.ref}:section:${u.headings.join('\n')}`
          : undefined
        : `${u.ref}:${u.group}`;
    if (key !== undefined) groups.set(key, [...(groups.get(key) ?? []), u]);
  }
  const { weights, groupText } = PARAMS;
  const out: Array<{ units: RankedUnit[]; s: number }> = [];
  // A section's prose is its list only when the section holds no list or table of its own.
  const listed = new Set(
    [...groups.values()]
      .filter((units) => units.filter((u) => u.kind === 'item' || u.kind === 'row' || u.kind === 'field').length >= 2)
      .map((units) => `${units[0].ref}:section:${units[0].headings.join('\n')}`),
  );
  for (const [key, units] of groups) {
    const parts = units.filter((u) => u.kind !== 'code');
    // One definition and its own sentences are one entry, not a list of them.
    const entry = units.some((u) => u.kind === 'definition') && new Set(units.map((u) => u.term)).size < 2;
    if (parts.length < 2 || listed.has(key) || entry) continue;
    const text = new Set(units.flatMap((u) => [...u.fields.text]));
    const { context, headings, title } = units[0].fields;
    const s = bm25(q, index, [
      [context, weights.text],
      [headings, weights.headings],
      [title, weights.title],
      [text, groupText],
    ]);
    if (s > 0) out.push({ units, s });
  }
  return out.sort((a, b) => b.s - a.s || a.units[0].seq - b.units[0].seq);
}

/**
 * The tables holding one row for each compared subject (a benchmark table per browser, each with a
 * row for both methods), in the sources' order, each as those rows in the subjects' order: a row
 * is a subject's when its key holds every term of the subject's name.
 */
export function comparedRows(index: UnitIndex, subjects: string[]): RankedUnit[][] {
  const names = subjects.map((s) => termsOf(s));
  if (names.some((terms) => terms.length === 0)) return [];
  const tables = new Map<number, RankedUnit[]>();
  for (const u of index.units) if (u.kind === 'row') tables.set(u.group, [...(tables.get(u.group) ?? []), u]);
  const out: RankedUnit[][] = [];
  for (const rows of tables.values()) {
    const picked = names.map((terms) => rows.filter((r) => terms.every((t) => r.fields.key.has(t))));
    if (picked.every((p) => p.length === 1)) out.push(picked.map((p) => p[0]));
  }
  return out.sort((a, b) => a[0].seq - b[0].seq);
}

/**
 * A name written with a capital inside a sentence (Python, WebP): a product, a language, a place;
 * or an acronym (GPU, YAML, TLS), wherever it stands.
 */
const NAME = /^\p{Lu}\p{Ll}+(?:\p{Lu}\p{Ll}*)*(?:'s|’s)?$/u;
const ACRONYM = /^\p{Lu}{2,}\p{N}*s?(?:'s|’s)?$/u;
/** A word in camel case: lower case, then a capital inside (setColor, useNamedReferences). */
const CAMEL = /^\p{Ll}+\p{Lu}[\p{L}\p{N}]*(?:'s|’s)?$/u;

/**
 * The identifiers a question names that no unit holds (with `ref`, no unit of that source: an
 * answer comes from a source that names what the question names): a number, a version or a flag the sources
 * never state (status code 599, `--sparse`, 11.x). A missing word may be filler ("described",
 * "under"); a missing identifier is what the question is about, so the sources do not answer it.
 * An identifier is missing when none of its forms is held (`uuid.parse()` is found as `.parse`).
 */
export function missingIdentifiers(text: string, index: UnitIndex, ref?: number): string[] {
  const words = text.split(/\s+/);
  // A capitalised word counts as a name where it is not the sentence's first, not after an
  // article ("the Accuracy of", "the Team plan": a title-cased noun) and not inside quoted words.
  let quoted = false;
  const isName = words.map((w, i) => {
    const inQuote = quoted || /^[“"]/.test(w);
    quoted = inQuote && !/[”"][)?!.,;:]*$/.test(w);
    const bare = w.replace(/[)?!.,;:]+$/, '');
    if (inQuote) return false;
    return ACRONYM.test(bare) || (i > 0 && !/^(?:the|a|an)$/i.test(words[i - 1]) && NAME.test(bare));
  });
  const missing = words
    .map((w, i) => ({ w: w.replace(/^[(“"'`]+|[)”"'`?!.,;:]+$/g, ''), name: isName[i] }))
    .filter(
      ({ w, name }) => /\d/.test(w) || symbolsOf(w).length > 0 || name || isHyphenName(unowned(w)) || CAMEL.test(w),
    )
    .map(({ w }) => w)
    .filter((w) => {
      // A name written in camel case (setColor, useNamedReferences) is held as written, its case aside.
      if (CAMEL.test(w)) return !index.writes(bareOf(unowned(w)), ref);
      // A name joined by hyphens (async-retry, p-retry) is held as written too: p-retry's "retry" is not async-retry.
      if (isHyphenName(unowned(w))) return !index.writes(bareOf(unowned(w)), ref);
      // A product named X.js is also called X, capitalised ("Tested in Node 14+"): "node cli.js" is not it.
      const product = /^(\p{Lu}\p{Ll}+)\.js$/u.exec(w)?.[1];
      const calls = (u: RankedUnit) => (u.text.match(/[\p{L}\p{N}_.]+/gu) ?? []).some((t) => t === product);
      if (product && index.units.some((u) => (ref === undefined || u.ref === ref) && calls(u))) return false;
      // A dotted name is held as written: "node cli.js" does not state Node.js. A version ("9.x")
      // is not a name: its number is what the other rules weigh.
      const all = termsOf(w).filter((t) => !t.startsWith('§=') && t !== versionedName(w));
      // A path of words (kleur/colors, input/output) may be written otherwise: held by its words.
      const whole = all.filter(
        (t) => /^§(?:.*\p{L})?\.\p{L}/u.test(t) || /^§[\p{L}\p{N}]{1,2}(?:\/[\p{L}\p{N}]{1,2})+$/u.test(t),
      );
      // A name joined to a number (HTTP/3, TLS1.3, UTF-8) is held as written too, its marks aside:
      // a source saying "HTTP" and "3" apart does not state HTTP/3.
      if (whole.length === 0 && all.length > 1 && JOINED.test(w)) return !index.writes(bareOf(w), ref);
      // A flag is held as a flag: join's `--output-delimiter` is not its words "output" and "delimiter".
      const forms = whole.length > 0 ? whole : isFlag(w) ? all.filter((t) => t.startsWith('§')) : all;
      return forms.length > 0 && !forms.some((t) => index.holds(t, ref));
    });
  // Of a choice ("CommonJS or ESM?"), the source need state only the one it says.
  const choice = CHOICE.exec(text);
  const either = choice ? missing.filter((w) => w === choice[1] || w === choice[2]) : [];
  return (either.length === 1 ? missing.filter((w) => w !== either[0]) : missing).concat(
    unknownModifiers(text, index, ref),
  );
}

/**
 * A word the source never writes right before one it writes after another: a kind of the thing it
 * names that the source does not know. In Chinese or Japanese, 罗马 in 罗马数字, where the source has
 * 阿拉伯数字; a word the source writes unmodified (返回 in 方法返回什么) is no such kind. In English,
 * a word rare in everyday English ("monospace font", where the source has "bitmapped fonts" and
 * "vector fonts"): a common one ("latest version") is more often said in other words.
 */
function unknownModifiers(text: string, index: UnitIndex, ref?: number): string[] {
  const out: string[] = [];
  const cjk = (w: string) => katakanaStem(w.toLowerCase());
  // A word's term, or none for a function word.
  const term = (w: string): string | undefined => {
    if (!isSpaceless(w)) return termsOf(w)[0];
    return w.length >= 2 && termsOf(w).includes(cjk(w)) ? cjk(w) : undefined;
  };
  // English words in prose only: a line of code writes names one after another, which modify nothing.
  const modified = (t: string, prose: boolean) =>
    index.units.some((u) => {
      if ((ref !== undefined && u.ref !== ref) || (prose && (u.kind === 'code' || u.kind === 'codeLine'))) return false;
      const ws = segmentWords(u.text);
      const ts = ws.map(term);
      // Modified by a word of its own script: "JSPinyin改写" is no kind of 改写.
      return ts.some((x, i) => x === t && ts[i - 1] !== undefined && isSpaceless(ws[i - 1]) === isSpaceless(ws[i]));
    });
  const unknown = (words: string[], asked: (w: string) => boolean, prose = false) => {
    const ts = words.map(term);
    for (let i = 0; i + 1 < ts.length; i++) {
      const [a, b] = [ts[i], ts[i + 1]];
      if (a && b && asked(words[i]) && !index.holds(a, ref) && modified(b, prose)) out.push(a);
    }
  };
  for (const run of text.match(SPACELESS) ?? []) unknown(segmentWords(run), () => true);
  // Words as written between spaces: "Uint8Array#copy" holds no word "Uint". The question's own
  // verb names no kind of what follows it: "disable" in "How do I disable colors".
  const words = text.split(/\s+/).map((w) => w.replace(/^[(“"'`]+|[)”"'`?!.,;:]+$/g, ''));
  const verbs = new Set([...text.matchAll(MAIN_VERB)].map((m) => m[1].toLowerCase()));
  unknown(words, (w) => /^\p{Script=Latin}+$/u.test(w) && isRareInEnglish(w) && !verbs.has(w.toLowerCase()), true);
  return out;
}

const SPACELESS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ーｰ]+/gu;
