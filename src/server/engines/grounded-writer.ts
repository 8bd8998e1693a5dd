import { answerIntent, comparedSubjects, FORM_WORDS, namesSubject, questionParts } from './answer-intent.js';
import { frameOf, type AnswerFrame } from './answer-frames.js';
import { PARAMS } from './answer/model-params.js';
import {
  answeringSection,
  bareOf,
  comparedRows,
  coverage,
  groupOf,
  holdsTerm,
  indexPassages,
  isProseSentence,
  keyTerms,
  missingIdentifiers,
  namesMethod,
  queryOf,
  quotedSection,
  rankGroups,
  saysTerm,
  score,
  type Passage,
  type Query,
  type RankedUnit,
  type UnitIndex,
} from './answer/rank.js';
import {
  asText,
  cite,
  COMMENT,
  givesResult,
  labelOf,
  sayCommands,
  sayComparedRows,
  sayList,
  sayOpening,
  sayRows,
  sayUnit,
  withItsCode,
  withoutRepeats,
  type Said,
} from './answer/render.js';
import { namesFile, symbolsOf, termsOf } from '../text/terms.js';
import { pointsBack } from '../text/statements.js';
import { quotedNames } from '../text/quoted.js';
import { separatorWords } from '../text/separator-words.js';

export type { Passage };

/**
 * The local grounded writer: one implementation, used by the gateway's local grounded model (for
 * chat, conversations, /api/v1 and MCP alike) and by the answer writer when no gateway exists.
 * One ranking model (answer/rank.ts: BM25F over the sources' document units) picks, for each part
 * of the question, its best unit, quoted as written with its citation. A part whose key terms no
 * unit holds is not answered; a question none of whose parts is answered says so, in its language.
 */

export interface ExtractiveRequest {
  query: string;
  passages: Passage[];
  /** Earlier questions of a thread: their words weigh a little, so a follow-up stays on topic. */
  history: Array<{ query: string; answer: string | null }>;
}

const MAX_POINTS = 6;

/**
 * A question's words without those naming the answer's form ("summarise", "compare", "list", the
 * "between" of "the difference between"; holiday_jp.between is searched).
 */
const searched = (text: string) =>
  text
    .replace(/\b(differ(?:ences?)?)\s+between\b/gi, '$1')
    .split(/\s+/)
    .filter((w) => !FORM_WORDS.has(w.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '')))
    .join(' ');

/**
 * What the question asks its answer to hold beyond its words: code ("how do I", "what command"), a
 * figure ("how many"). "The uuid command" names a command; it does not ask for one.
 */
const asksCode = (q: string) =>
  /\b(how (do|can|should) (i|we|you)|how to|(what|which) (command|syntax)|commands? (to|for|that)|syntax)\b|如何|怎么|怎样|どうやって|方法|するには/i.test(
    q,
  );

/** Deterministic: the same sources and question give the same answer. */
export function extractiveAnswer(req: ExtractiveRequest): string {
  const frame = frameOf(req.query);
  if (req.passages.length === 0) return frame.noSources(req.query.trim());
  const index = indexPassages(req.passages);
  const history = req.history.map((h) => h.query);
  const intent = answerIntent(req.query);
  const whole = searched(req.query);
  if (intent === 'summary' || !termsIn(whole)) return summary(index, queryOf(whole, history), frame);
  // A question that only names a source ("What is gzip?", "Winston") asks what the source is: its
  // own opening says so, not the sentence that names it most often.
  const named = asksWhat(whole) ? namedSourceOpening(index, queryOf(whole), whole) : undefined;
  if (named) return `${frame.lead} ${sayOpening(named).lines.join('\n\n')}`;
  const subjects =
    intent === 'compare'
      ? askedOfEach(ownedSubjects(comparedSubjects(req.query), req.query, index), index)
      : namedSubjects(req.query, index);
  // Subjects compared where tables hold a row of each (a benchmark per browser): those rows, side by side.
  const rows = intent === 'compare' && subjects.length >= 2 ? comparedRows(index, subjects) : [];
  if (rows.length > 0) return sayComparedRows(rows, frame).lines.join('\n\n');
  const parts = subjects.length >= 2 ? subjects : sourceParts(req.query, index);
  const used = new Set<RankedUnit>();
  const out: string[] = [];
  let prose = false;
  let answered = 0;
  let nearest: RankedUnit | undefined;
  for (const part of parts) {
    // So does a part only naming one ("What does stdbuf do and what does nohup do?").
    // A subject ("fastq" of "How do I install fastq and busboy?") asks what the whole question does.
    const asksOpening = parts.length > 1 && subjects.length < 2 && asksWhat(part);
    const opening = asksOpening ? namedSourceOpening(index, queryOf(part), part) : undefined;
    if (opening) {
      const said = sayOpening(opening);
      if (out.length === 0) prose = said.prose;
      out.push(...said.lines);
      answered++;
      continue;
    }
    const later = subjects.length >= 2 ? '' : searched(parts.slice(parts.indexOf(part) + 1).join(' '));
    const q = partQuery(valuesAside(searched(part)), valuesAside(whole), history, subjects, valuesAside(part), later);
    // A subject's answer takes the form the whole question asks for ("how do I install A and B").
    const everywhere = rank(index, q, subjects.length >= 2 ? req.query : part, used);
    // A section the part names by its heading ("under 'Quickstart'") is where its answer is, unless
    // a unit elsewhere holds more of the part (a table row cut from its heading by a page break).
    // A part naming a source ("rotate debug's logs") is not answered by another source's unit that
    // does not name it too: winston's daily rotation is not debug's, nor its 「安装」 section Nzh's.
    // A later part naming none asks of the source an earlier part names ("… flock …, and which option changes it?").
    const partNames = sourceNames(index, part);
    const earlier = subjects.length < 2 ? parts.slice(0, parts.indexOf(part)).join(' ') : '';
    const naming = partNames.titles.size === 0 && earlier ? sourceNames(index, earlier) : partNames;
    const ofNamed = (u: RankedUnit) =>
      naming.titles.size === 0 || naming.titles.has(u.title) || naming.words.every((w) => holdsWord(u, w));
    const quoted = quotedSection(index, part);
    const named = quoted && new Set([...quoted].filter(ofNamed));
    const held = (rs: typeof everywhere) => Math.max(0, ...rs.map((r) => coverage(r.u, q, index)));
    const scope =
      named && held(everywhere.filter((r) => named.has(r.u))) >= held(everywhere) - 1e-9 ? named : undefined;
    const ranked = scope ? everywhere.filter((r) => scope.has(r.u)) : everywhere;
    nearest ??= ranked[0]?.u;
    const top = ranked[0];
    // The part is answered from units holding enough of its key terms (weighed by rarity), of a
    // source naming each number, version, flag or name it states: "TLS" stated by one source does
    // not let another answer a question about TLS.
    const known = new Map<number, boolean>();
    const names = (ref: number) => {
      if (!known.has(ref)) known.set(ref, missingIdentifiers(valuesAside(searched(part)), index, ref).length === 0);
      return known.get(ref)!;
    };
    const apis = apiNames(searched(part), index);
    // A compared subject is answered by a unit holding its own words: semver-diff's "difference
    // type between two versions" says nothing of compare-versions' validate.
    const own = subjects.length >= 2 ? keyTerms(queryOf(searched(part))) : [];
    const fitting = ranked.filter(
      (r) =>
        r.covers &&
        names(r.u.ref) &&
        ofNamed(r.u) &&
        (apis.length === 0 || apis.some((a) => holdsApi(r.u, a))) &&
        (own.length === 0 || own.some((t) => holdsTerm(r.u, t))),
    );
    // A unit saying only the question's own words (a label: "Full mode", "options.expandRange")
    // answers nothing; another that fits does. A symbol it says besides (`tick | ✔ | √`) is an
    // answer, and so is what it leads into ("返回：" before the type returned). A field echoes when
    // its value does under a name not asked ("Program: GNU bc" to "What licence is GNU bc under?").
    const echoes = (u: RankedUnit) =>
      (u.kind === 'codeLine' && IMPORT_LINE.test(u.text) && !/\b(?:import|require)/i.test(part)) ||
      (u.kind === 'field'
        ? bareOf(u.value ?? '').length > 0 &&
          bareOf(part).includes(bareOf(u.value ?? '')) &&
          !bareOf(part).includes(bareOf(u.name ?? ''))
        : !u.term &&
          !labelOf(u) &&
          !givesResult(u, index) &&
          bareOf(u.text).length > 0 &&
          bareOf(part).includes(bareOf(u.text)) &&
          !/[^\p{L}\p{N}\p{P}\s|]/u.test(u.text) &&
          !/[:：]\s*$/.test(u.text));
    const saying = fitting.some((r) => !echoes(r.u)) ? fitting.filter((r) => !echoes(r.u)) : fitting;
    // Of a compared subject's units, those not naming another's own words: validate's section, not
    // validateStrict's "Validate version numbers (strict)".
    const theirs = subjects
      .filter((x) => x !== part)
      .flatMap((x) => [...queryOf(searched(x)).keys()])
      .filter((t) => !own.includes(t));
    const alone = saying.filter((r) => !theirs.some((t) => holdsTerm(r.u, t)));
    const fit = alone.length > 0 ? alone : saying;
    const covered = fit.length > 0;
    if (!top || !covered) {
      if (subjects.length >= 2) out.push(`- **${part}**: ${frame.nothingOn(part)}`);
      continue;
    }
    answered++;
    const kinds = ASKS_SEVERAL.test(part);
    const groups = intent === 'list' ? rankGroups(index, q).filter((g) => listable(g.units, part)) : [];
    // The items under a named section are its first list, whatever the words of its neighbours.
    const group = scope
      ? groups.filter((g) => g.units.every((u) => scope.has(u))).sort((a, b) => a.units[0].seq - b.units[0].seq)[0]
      : groups[0];
    // The commands under a named section are its code blocks, in order, as far as the room allows.
    const commands = scope && asksCommand(part) ? sayCommands(scope, q, index, frame) : undefined;
    // A section whose heading asks this part opens with its answer, unless code is asked for.
    // A section named in quotes is where the answer is, not what is asked: its heading asks nothing.
    const asked = scope ? withoutTerms(q, termsOf(quotedNames(part).join(' '))) : q;
    // Of the sources the part names, when it names any: openssh's "-L option" section does not answer wc's -L.
    const within = scope ?? (naming.titles.size > 0 ? new Set(index.units.filter(ofNamed)) : undefined);
    const section = intent !== 'list' && !asksCode(part) ? answeringSection(index, asked, used, within) : undefined;
    const chosen =
      (group && sayList(group.units, index)) ||
      commands ||
      (section
        ? sayOpening(section.units)
        : sayBest(fit, q, index, frame, kinds || asksCode(part), ASKS_WHERE.test(part), kinds));
    // A sentence leading into its block ("Default:") says nothing without it, whatever is asked.
    const leadsOn = /[:：]$/.test(chosen.used.at(-1)?.text.trim() ?? '');
    const said = asksCode(part) || leadsOn ? withItsCode(chosen, q, index, frame) : chosen;
    if (out.length === 0) prose = said.prose;
    said.used.filter((u) => u.kind !== 'row').forEach((u) => used.add(u));
    const lines = said.lines.filter((l) => !out.includes(l));
    // A subject answered with a block (code, a table) is named above it: a fence cannot open mid-line.
    if (subjects.length >= 2 && lines.some((l) => l.includes('\n'))) out.push(`**${part}**:`, ...lines);
    else if (subjects.length >= 2) out.push(`- **${part}**: ${lines.join(' ')}`);
    else out.push(...lines);
  }
  if (answered === 0) return frame.notCovered(topicsOf(index, nearest));
  const body = withoutRepeats(out).join('\n\n');
  // The lead-in opens a sentence; before a block (a fence, a table, a list) it is a line of its own,
  // or the fence would not open and the rest of the answer would read as code.
  if (prose) return BLOCK_START.test(body) ? `${frame.lead}\n\n${body}` : `${frame.lead} ${body}`;
  return frame.lang === 'en' ? body : `${frame.lead}\n\n${body}`;
}

const termsIn = (text: string) => queryOf(text).size > 0;

/**
 * A how-to part without the counts it states: a number before a plural ("put 500 lines in each
 * piece") is the asker's own value, which no source states; a number naming a thing ("a 404
 * error", "version 7") is not.
 */
const valuesAside = (part: string) =>
  asksCode(part) ? part.replace(/(?<![\p{L}\p{N}._/-])\d+(?=\s+\p{Ll}+s\b)/gu, ' ') : part;

/**
 * A question asking what something is or does: "Why use serve-favicon?", "How do I use it?" and
 * "What happens if a SHELL-FORMAT is given?" (a case of it) ask more.
 */
const asksWhat = (question: string) =>
  answerIntent(question) === 'answer' && !/^\s*(?:why|how|when|where|who)\b|\b(?:if|when|whether)\s/i.test(question);

interface ApiName {
  symbols: string[];
  member: string | undefined;
}

/**
 * The API names and flags a part asks about (`lru.keys()`, `options.expandRange`, `--type`) that
 * some unit holds. A unit holding none of them, as written (its headings too) or its last member
 * said by the unit itself (a table row keyed `expandRange`), answers about another name: lru.get's
 * "Returns the value in the cache" does not say what `lru.keys()` returns.
 */
function apiNames(part: string, index: UnitIndex): ApiName[] {
  // A name given as an example ("a flag like -v") is not what is asked about.
  return part
    .replace(/\b(?:like|such as|e\.g\.,?|for example,?)\s+\S+/gi, ' ')
    .split(/\s+/)
    .map((w) => {
      // A flag (`--type`, `-i` in its case) is named only as written: its word alone is no name.
      const flags = symbolsOf(w).filter((t) => /^§(?:=-\p{L}|--\p{L}.*)$/u.test(t));
      if (flags.length > 0) return { symbols: flags, member: undefined };
      return {
        symbols: symbolsOf(w).filter((t) => /^§[^-].*[.(]/.test(t) && !namesFile(t)),
        member: termsOf(/([\p{L}_$][\p{L}\p{N}_$]*)[^\p{L}\p{N}_$]*$/u.exec(w)?.[1] ?? '')[0],
      };
    })
    .filter((a) => a.symbols.some((t) => index.holds(t)));
}

const holdsApi = (u: RankedUnit, a: ApiName) =>
  a.symbols.some((t) => holdsTerm(u, t)) || (a.member !== undefined && saysTerm(u, a.member));

/**
 * The opening paragraph of the one source a question only names, when its passages include its
 * opening (the grounding brings it for such a question): its title holds the key terms, but for
 * names its first prose sentence writes ("What is GNU ed?" of "ed-readme", which opens "GNU ed
 * is…"). Undefined when the question asks more than a name.
 */
function namedSourceOpening(index: UnitIndex, q: Query, question: string): RankedUnit[] | undefined {
  // Words, not the symbol words joined by a mark make (`chinese-s2t`): the title holds its words.
  // A flag (`-F`) or a call is asked of the source, not its name.
  const terms = keyTerms(q).filter((t) => !JOINED_WORDS.test(t));
  const names = new Set(termsOf((question.match(/(?<=\s)\p{Lu}\S*/gu) ?? []).join(' ')));
  const firsts = new Map<number, RankedUnit>();
  for (const u of index.units)
    if (!firsts.has(u.ref) && u.kind === 'sentence' && !u.term && isProseSentence(u.text)) firsts.set(u.ref, u);
  const named = [...firsts.values()].filter(
    (f) =>
      terms.some((t) => f.fields.title.has(t)) &&
      terms.every((t) => f.fields.title.has(t) || (names.has(t) && f.fields.text.has(t))),
  );
  if (named.length !== 1) return undefined;
  const [opening] = named;
  if (!opening.opening || /[:：]\s*$/.test(opening.text)) return undefined;
  // A later sentence defining the name as a kind of thing ("Fontconfig is a library which…") says
  // what it is, where the opening may be a notice ("Recently, fontconfig changed…"); "Commander is
  // strict and…" does not.
  const defines = definesAsked(question);
  const first =
    opening.kind === 'sentence' && defines(opening)
      ? opening
      : (index.units.find(
          (u) => u.ref === opening.ref && u.kind === 'sentence' && !u.term && defines(u) && CLASSIFIES.test(u.text),
        ) ?? opening);
  return groupOf(first, index, 'sentence');
}

const JOINED_WORDS = /^§[\p{L}\p{N}]+(?:[-_.][\p{L}\p{N}]+)+$/u;

/** A sentence naming what kind of thing its subject is: "Fontconfig is a library…". */
const CLASSIFIES = /^\S+(?:\s+\S+)?\s+(?:is|are)\s+(?:an?|the|one)\s/i;

/** A sentence setting a case: "If a SHELL-FORMAT is given, …". */
const CASE = /^(?:if|when)\s/i;

/** A question asking where something is. */
const ASKS_WHERE = /^\s*where\b/i;

/** An address or a path (`/etc/x/`, `dist/clsx.js`): what "Where is…" asks for. */
const LOCATION = /\b(?:https?:\/\/|www\.)\S+|(?:^|\s)~?\/[\w.-]+\/\S*|\b[\w.-]+\/[\w.-]+\.\p{L}+\b/u;

/** A line importing a name (`import { validateStrict } from 'compare-versions';`) says only that name. */
const IMPORT_LINE = /^\s*(?:import\s.*\bfrom\s|(?:const|let|var)\s.*=\s*require\(|from\s+\S+\s+import\s)/;

/** Markdown that opens a block, not a sentence: a fence, a table row, a list item, a heading, a quote. */
const BLOCK_START = /^(?:`{3,}|~{3,}|\||[-*+] |\d+[.)] |#|>)/;

const withoutTerms = (q: Query, terms: string[]): Query => new Map([...q].filter(([t]) => !terms.includes(t)));

/** "Which projects are…", "What formats does…", "What are the values…": a question asking for several things of a kind. */
const ASKS_SEVERAL =
  /\b(?:which|what)\s+(?:(?:[\p{L}-]+\s+)?\p{L}+s\s+(?:are|were|do|does|did|can)|are\s+the\s+\p{L}+s)\b/iu;

/** A part asking which command or code is given ("what command…", 「用什么命令」), not what one is. */
const asksCommand = (part: string) =>
  /\b(?:what|which)\s+(?:commands?|code|snippet|example)\b|什么命令|哪个命令|どのコマンド/i.test(part);

/**
 * A list is listed from a list, a table or a section; from a code block only when code is asked
 * for or its lines are named values (`error: 0`, `warn: 1`), a list written as code.
 */
const listable = (group: RankedUnit[], part: string) =>
  asksCode(part) ||
  !group.some((u) => u.kind === 'code') ||
  group.filter((u) => u.kind === 'codeLine' && u.name).length >= 2;

/**
 * A part's query: its own terms, then the rest of the question as context (the subject named in
 * an earlier part: "when did its LTS end"), then the thread's. In a comparison the other subjects'
 * own words are left out, so each subject finds its own units. A later part's words are context
 * only as the thread's are: "its" points back, and the next part asks its own question.
 */
function partQuery(part: string, whole: string, history: string[], subjects: string[], raw: string, later = ''): Query {
  // Words that may name the answer's form ("key points", "list", "name") are searched for at the
  // weight of a phrasing word: "s3rver's key option" asks about an option named key.
  const q = queryOf(raw);
  for (const [t, w] of q) if (!queryOf(part).has(t)) q.set(t, Math.min(w, PARAMS.lightVerb));
  const others = new Set(subjects.filter((s) => s !== raw).flatMap((s) => [...queryOf(s).keys()]));
  const ahead = new Set(queryOf(later).keys());
  for (const [t, w] of queryOf(whole))
    if (!q.has(t) && !others.has(t))
      q.set(t, Math.min(w, subjects.length ? 1 : ahead.has(t) ? PARAMS.history : PARAMS.lightVerb));
  for (const [t] of queryOf('', history)) if (!q.has(t)) q.set(t, PARAMS.history);
  return q;
}

/** The units ranked for a part: BM25F, times the form boost when a unit is what the part asks for. */
function rank(
  index: UnitIndex,
  q: Query,
  form: string,
  used: Set<RankedUnit>,
): Array<{ u: RankedUnit; s: number; covers: boolean }> {
  const code = asksCode(form);
  const compare = answerIntent(form) === 'compare';
  const defines = definesAsked(form);
  // "What does the count field mean?" asks for a definition whose term it names (`<count>`).
  const meaning = /\bmean(?:s|ing)?\b/i.test(form);
  const where = ASKS_WHERE.test(form);
  const cases = termsOf(/\b(?:if|when)\s+([^?,]+)/i.exec(form)?.[1] ?? '');
  const condition = /\b(?:when|if)\b[^?]*?\b(true|false)\b/i.exec(form)?.[1].toLowerCase();
  const [stated, other] = termsOf(condition === 'true' ? 'true false' : 'false true');
  // An option turning off what the question asks for (`--no-ignore-case` to "How do I make grep
  // ignore case?") answers nothing, unless the question asks to turn it off or names the option.
  const asksOn = !/\b(?:not|no|don['’]t|without|disable|stop|turn off)\b/i.test(form);
  const turnsOff = (u: RankedUnit) => {
    const off = /(?:^|[\s,])--no-([\p{L}-]+)/u.exec(u.term ?? '')?.[1];
    const asked = (t: string) => (q.get(t) ?? 0) >= 1;
    return (
      asksOn &&
      off !== undefined &&
      termsOf(off.replace(/-/g, ' ')).every(asked) &&
      ![...u.fields.key].some((t) => t.startsWith('§-') && asked(t))
    );
  };
  const statesOther = (u: RankedUnit) =>
    (condition !== undefined && u.kind === 'sentence' && u.fields.text.has(other) && !u.fields.text.has(stated)) ||
    turnsOff(u);
  const ranked = index.units
    .filter((u) => !used.has(u) && !(u.kind === 'codeLine' && COMMENT.test(u.text)))
    .map((u) => {
      let s = score(u, q, index);
      // The form asked for decides between units about the question, never for one that is not.
      // Nor is one stating the other value of a boolean the part states ("When `true`, …" to "… when X is false?").
      if (coverage(u, q, index) < PARAMS.minCoverage || statesOther(u)) return { u, s, covers: false };
      if (code && (u.kind === 'code' || u.kind === 'codeLine' || u.markdown.includes('`') || leadsIntoCode(u, index)))
        s *= PARAMS.formBoost;
      // A comparison sets descriptions side by side: what each subject is or does, not its examples.
      else if (compare && (u.kind === 'sentence' || u.kind === 'definition')) s *= PARAMS.formBoost;
      else if (u.kind === 'sentence' && defines(u)) s *= PARAMS.formBoost;
      else if (meaning && u.kind === 'definition' && asksAll(u, q)) s *= PARAMS.formBoost;
      else if (where && LOCATION.test(u.text)) s *= PARAMS.formBoost;
      // "What happens if a SHELL-FORMAT is given?" is answered by the sentence setting that case.
      else if (
        u.kind === 'sentence' &&
        CASE.test(u.text) &&
        cases.length > 0 &&
        cases.every((t) => u.fields.text.has(t) || u.fields.title.has(t))
      )
        s *= PARAMS.formBoost;
      // A property asked by its name and its subject's is the cell asked for ("the default of options.format").
      else if (u.kind === 'field' && u.subject && [u.name, u.subject].every((x) => asksName(x ?? '', q)))
        s *= PARAMS.formBoost;
      return { u, s, covers: true };
    })
    .filter((r) => r.s > 0)
    .sort((a, b) => b.s - a.s || a.u.seq - b.u.seq);
  // A label leading into a table or a list ("Reserved uids:") is said with all of it: a row or an
  // item of it holding more of the question is the answer instead.
  const label = ranked[0];
  const block = label && index.units.find((x) => x.ref === label.u.ref && x.seq > label.u.seq);
  const within =
    label?.covers &&
    /[:：]$/.test(label.u.text.trim()) &&
    (block?.kind === 'row' || block?.kind === 'item') &&
    ranked.find((r) => r.covers && r.u.group === block.group && coverage(r.u, q, index) > coverage(label.u, q, index));
  if (within) ranked.unshift(...ranked.splice(ranked.indexOf(within), 1));
  // A question asking no code is answered in prose when prose scores near the code and holds as
  // much of the question: an example's line is not what "What does pMapSkip do?" asks.
  const top = ranked[0];
  if (code || !top?.covers || (top.u.kind !== 'code' && top.u.kind !== 'codeLine')) return ranked;
  const held = coverage(top.u, q, index);
  const prose = ranked.find(
    (r) =>
      r.covers &&
      r.u.kind !== 'code' &&
      r.u.kind !== 'codeLine' &&
      r.s >= top.s * PARAMS.closeShare &&
      coverage(r.u, q, index) >= held,
  );
  return prose ? [prose, ...ranked.filter((r) => r !== prose)] : ranked;
}

/** A sentence leading into a code block ("… run a job in a forked process:", "Default:"): said with it. */
const leadsIntoCode = (u: RankedUnit, index: UnitIndex) => {
  const last = (u.kind === 'definition' ? u.description : u.kind === 'sentence' ? u.text : '')?.trim() ?? '';
  return (
    /[:：]$/.test(last) &&
    index.units.some((x) => x.kind === 'code' && x.ref === u.ref && x.leadIn?.trim().endsWith(last))
  );
};

/**
 * Whether a sentence defines what a "What is X?" part asks: "What is a word (in wc)?" is answered
 * by "A word is a non-zero-length…", 「冗長な表現とは何ですか？」 by 「冗長な表現とは、…」, "什么是X？" by "X是…".
 */
function definesAsked(form: string): (u: RankedUnit) => boolean {
  const defined = DEFINED.exec(form) ?? DEFINED_CJK.exec(form) ?? STANDS_FOR.exec(form);
  const asked = (defined?.[1] ?? defined?.[2] ?? defined?.[3])?.toLowerCase();
  // An abbreviation is defined by its words in brackets after it: "PAM (Pluggable Authentication Modules)".
  const expands = (text: string) => {
    const at = asked ? text.toLowerCase().indexOf(`${asked} (`) : -1;
    return at >= 0 && EXPANSION.test(text.slice(at + asked!.length + 1));
  };
  return (u) => {
    const text = u.text.toLowerCase().replace(/^(?:an?|the)\s+/, '');
    return (
      asked !== undefined &&
      ((text.startsWith(asked) && /^(?:s?\s+(?:is|are|means)\b|\s*(?:とは|是|指))/.test(text.slice(asked.length))) ||
        expands(u.text))
    );
  };
}

/** Capitalised words in brackets: what an abbreviation before them stands for. */
const EXPANSION = /^\((?:\p{Lu}[\p{L}-]*\s+){1,5}\p{Lu}[\p{L}-]*\)/u;

/** "What does PAM stand for?" asks what the abbreviation's letters are. */
const STANDS_FOR = /^\s*what\s+(?:does|do)\s+(\S+)\s+stand\s+for\s*[?？]?\s*$/i;

/** What a "What is X?" part asks to have defined, without its article and setting ("… in wc"). */
const DEFINED =
  /^\s*what\s+(?:is|are)\s+(?:an?\s+|the\s+)?(\p{L}[\p{L}\s-]*?)(?:\s+(?:in|for|of|by)\s.*)?\s*[?？]?\s*$/iu;

const DEFINED_CJK =
  /^\s*(?:(\S.*?)\s*とは(?:何|なに|なん)?(?:ですか|でしょうか)?|(?:什[么麼]是|何为)\s*(\S.*?)|(\S.*?)\s*是什[么麼])\s*[?？]?\s*$/u;

/** Whether the part asks one of a name's terms itself (not as context). */
const asksName = (name: string, q: Query) => termsOf(name).some((t) => (q.get(t) ?? 0) >= 1);

/** Whether the part asks every word of a unit's term itself (or its letter: "the r flag"). */
const asksAll = (u: RankedUnit, q: Query) => {
  const words = [...u.fields.key].filter((t) => !t.startsWith('§') || t.startsWith("§'"));
  return words.length > 0 && words.every((t) => (q.get(t) ?? 0) >= 1);
};

/**
 * The sources a question names: those whose title holds one of its words, as written, that not
 * every source's title holds ("winston's level option" names winston among several READMEs), and
 * those words. Words as written, not stems: "what command" does not name Commander.
 */
function sourceNames(index: UnitIndex, part: string): { titles: Set<string>; words: string[] } {
  const titles = new Map<string, Set<string>>();
  for (const u of index.units) if (!titles.has(u.title)) titles.set(u.title, wordsOf(u.title));
  const named = { titles: new Set<string>(), words: [] as string[] };
  if (titles.size < 2) return named;
  for (const w of wordsOf(part.replace(/['’]s\b/g, ''))) {
    if (termsOf(w).length === 0) continue;
    const holding = [...titles].filter(([, words]) => words.has(w)).map(([title]) => title);
    if (holding.length === 0 || holding.length === titles.size) continue;
    holding.forEach((title) => named.titles.add(title));
    named.words.push(w);
  }
  return named;
}

/**
 * Whether a unit itself says a word (any of its terms): its text or its key. A heading above it
 * does not count: fastq's `worker(arg)` heading does not make its sentences about arg.
 */
const holdsWord = (u: RankedUnit, word: string) => termsOf(word).some((t) => saysTerm(u, t));

/**
 * The sources one question asks the same thing of ("How do I install Nzh and pinyin-pro?"): each
 * side of its "and" names a different source, so each is answered as a subject of its own, with
 * the rest of the question as its context, as a comparison's subjects are.
 */
function namedSubjects(query: string, index: UnitIndex): string[] {
  if (questionParts(query).length > 1) return [];
  const sides = query.split(SIDES).filter((s) => s.trim());
  // "In Pino's LTS page, what is the release date": a later side asking a question of its own is no subject.
  if (sides.length < 2 || !sides.slice(1).every(namesSubject)) return [];
  const subjects: string[] = [];
  const named = new Set<string>();
  for (const [i, side] of sides.entries()) {
    const titles = sourceNames(index, side).titles;
    if (titles.size !== 1 || named.has([...titles][0])) return [];
    named.add([...titles][0]);
    const words = wordsOf([...titles][0]);
    // The subject as the question writes it: its tokens holding a word of the source's title.
    const naming = (t: string) => [...wordsOf(t)].some((w) => words.has(w));
    const tokens = side.split(/\s+/).filter(naming);
    // A later side says little besides its name ("and pinyin-pro", "and the debug module"); one
    // saying more ("and adds mime type validation") goes on asking about the first.
    const rest = side.split(/\s+/).filter((t) => !naming(t));
    if (i > 0 && termsOf(rest.join(' ')).length > 1) return [];
    subjects.push(tokens.map((t) => t.replace(/^[(“"'`]+|[)”"'`?？!.,;:]+$/g, '')).join(' '));
  }
  return subjects;
}

/** The sides of a question naming several sources: "Nzh and pinyin-pro", "A, B or C". */
const SIDES = new RegExp(`\\s*(?:${separatorWords('and', 'or')}|,|和|与|及|、)\\s*`, 'i');

/**
 * The question's parts; one asking a thing of one source and, after "and", another thing of
 * another ("the default stale time in proper-lockfile and the default reserve in get-port") is two.
 */
function sourceParts(query: string, index: UnitIndex): string[] {
  const parts = questionParts(query);
  const sides = query.split(/\s+and\s+(?=(?:the|a|an|its|their)\s)/i);
  if (sides.length < 2 || parts.length > 1) return parts;
  const titles = sides.map((s) => [...sourceNames(index, s).titles]);
  const one = titles.every((t) => t.length === 1) && new Set(titles.map((t) => t[0])).size === sides.length;
  return one ? sides : [query];
}

/**
 * Compared subjects after one its source owns ("tee's -a and -i"): each later one naming no source
 * and no owner of its own ("Winston's") is that source's too, or -i would be asked of every source
 * (uniq's -i ignores case).
 */
function ownedSubjects(subjects: string[], query: string, index: UnitIndex): string[] {
  const owner = /^(.+?['’]s)\s+\S/u.exec(subjects[0] ?? '')?.[1];
  // A source is named by a word of its title, even when it is the only source retrieved.
  const titles = [...new Set(index.units.map((u) => u.title))].map(wordsOf);
  const namesSource = (s: string) => [...wordsOf(s.replace(/['’]s\b/g, ''))].some((w) => titles.some((t) => t.has(w)));
  if (!owner || !namesSource(owner)) return subjects;
  const owned = (s: string) => /['’]s\s/u.test(s) || query.includes(`${s}'s`) || query.includes(`${s}’s`);
  return subjects.map((s, i) => (i === 0 || owned(s) || namesSource(s) ? s : `${owner} ${s}`));
}

/**
 * Compared subjects after one that asks something of a source ("the hour field in cron-parser and
 * node-cron"): a later one only naming another source asks that of it ("hour field in node-cron").
 */
function askedOfEach(subjects: string[], index: UnitIndex): string[] {
  const naming = sourceNames(index, subjects[0] ?? '').words;
  const isName = (s: string) => sourceNames(index, s).titles.size === 1 && s.split(/\s+/).length === 1;
  if (naming.length === 0 || isName(subjects[0])) return subjects;
  const tokens = subjects[0].split(/\s+/);
  const at = tokens.findIndex((t) => naming.some((w) => wordsOf(t).has(w)));
  return subjects.map((s, i) =>
    i > 0 && isName(s) ? [...tokens.slice(0, at), s, ...tokens.slice(at + 1)].join(' ') : s,
  );
}

const wordsOf = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/** The best unit said, and a second one close to it in score when both fit in the room. */
function sayBest(
  ranked: Array<{ u: RankedUnit; s: number }>,
  q: Query,
  index: UnitIndex,
  frame: AnswerFrame,
  several = false,
  where = false,
  ofKind = false,
): Said {
  const top = ranked[0].u;
  // A paragraph opening on what the part asks about ("`flush` is an optional boolean. When set to
  // true, …") is about it: said as far as the room allows.
  const paragraph = groupOf(top, index, 'sentence');
  const subject = termsOf(/^\S+/.exec(top.text)?.[0] ?? '')[0];
  if (
    !top.term &&
    paragraph[0] === top &&
    paragraph.length > 1 &&
    (q.get(subject) ?? 0) >= 1 &&
    !top.fields.title.has(subject)
  )
    return sayOpening(paragraph);
  const said = sayUnit(top, q, index, frame);
  // A lead-in ("Default:") is answered by the block it leads into: said with it, alone.
  const block = leadsIntoCode(top, index) ? withItsCode(said, q, index, frame) : said;
  if (block !== said) return block;
  // Asked for several of a kind its list's lead-in names ("the following modules:"), an item's
  // sibling scoring near it comes first: the list answers.
  const leads = ofKind && top.kind === 'item' && termsOf(top.leadIn ?? '').some((t) => (q.get(t) ?? 0) >= 1);
  const sibling = (r: (typeof ranked)[number]) =>
    leads && r.u.kind === 'item' && r.u.ref === top.ref && r.u.group === top.group;
  const rest = ranked.slice(1).filter((r) => !said.used.includes(r.u));
  const second = rest.find((r) => sibling(r) && r.s >= ranked[0].s * PARAMS.closeShare) ?? rest[0];
  if (!second || second.s < ranked[0].s * PARAMS.closeShare) return said;
  // A line of a code block said whole is said already: quoted alone, it would take the block's place.
  const u = second.u;
  if (said.used.some((x) => x.kind === 'code' && x.ref === u.ref && x.group === u.group)) return said;
  const [a, b] = [ranked[0].u, second.u];
  // So is the help text's line a definition was read from (`-i --interactive     Ask for…`).
  const oneSpaced = (x: string) => x.replace(/\s+/g, ' ').trim();
  if (
    a.kind === 'definition' &&
    b.kind === 'codeLine' &&
    oneSpaced(b.text).startsWith(oneSpaced(`${a.term} ${a.description}`).slice(0, 40))
  )
    return said;
  // Two items of one list answering a question asking for several ("Which projects are…?") or how
  // to do a thing (its steps) are the list's; so is a list under the sentence answering it ("The
  // default value is 'keep'." over unset's values), though its items need not say what is asked.
  const listed = (x: RankedUnit) => (x.kind === 'item' || x.kind === 'field') && x.depth !== undefined;
  const list = groupOf(b, index).filter(listed);
  const sameSection = a.ref === b.ref && a.headings.join('\n') === b.headings.join('\n');
  if (several && listed(b) && (list.includes(a) || (a.kind === 'sentence' && sameSection))) {
    // Of the section's lists, the one its lead-in says is asked for ("The object has the following fields:").
    const asked = (x: RankedUnit) => termsOf(x.leadIn ?? '').filter((t) => (q.get(t) ?? 0) >= 1).length;
    const lead = index.units.find(
      (x) => listed(x) && x.ref === b.ref && x.headings.join('\n') === b.headings.join('\n') && asked(x) > asked(b),
    );
    const chosen = lead ? groupOf(lead, index).filter(listed) : list;
    return sayList(chosen, index) ?? said;
  }
  // A sentence of the same paragraph reads on from the first; another must say something asked.
  const samePart = b.ref === a.ref && b.group === a.group;
  // "Where is…" is answered by a place: an address or a path said after a sentence naming none.
  // Answered by a place, it is answered: a line naming none adds nothing.
  const placed = where && said.lines.some((l) => LOCATION.test(l));
  const place = where && LOCATION.test(b.text) && !placed;
  if ((!samePart && !saysAsked(b, q) && !place) || (placed && !LOCATION.test(b.text))) return said;
  // A unit said under another name than the one the part names ("`isAttributeValue`: …" when it
  // asks about useNamedReferences, `-L` when it asks about `-x`) answers another question.
  const label = (u: RankedUnit) => u.term ?? u.termMarkdown ?? u.rowKey;
  // Named by a flag (`-x`) or a name written as one word (useNamedReferences), not by a word in it.
  // A short flag is named in its case (`-L` is not `-l`): by its term as written, not the folded one.
  const named = (u: RankedUnit) => {
    const terms = termsOf(label(u) ?? '').filter((t) => !/^§-[^-]/.test(t));
    return terms.some(
      (t, i) => ((t.startsWith('§') || (i === 0 && terms.length > 1)) && q.has(t)) || namesMethod(q, t),
    );
  };
  if (named(a) && label(b) && !named(b)) return said;
  // A subject's property ("Default: `false`") and its description answer different questions, as
  // do two subjects' properties (level's default and memLevel's).
  const propertyOf = (p: RankedUnit, d: RankedUnit) =>
    p.kind === 'field' && p.subject !== undefined && d.term === p.subject;
  if (propertyOf(a, b) || propertyOf(b, a) || (a.subject && b.subject && a.subject !== b.subject)) return said;
  // Nor is one lacking a name joined to a number that the part writes and the first says: KOI8-R
  // after KOI8-U, UTF-16 after UTF-8.
  const numbered = (t: string) => /^§\p{L}[\p{L}\p{N}]*[-/]/u.test(t) && /\d/.test(t);
  if (!samePart && keyTerms(q).some((t) => numbered(t) && saysTerm(a, t) && !saysTerm(b, t))) return said;
  // A section the part names by its heading ("In Chrome 38, …") is not answered from another section.
  const sectionTerms = (u: RankedUnit) => keyTerms(q).filter((t) => u.fields.headings.has(t) && !u.fields.title.has(t));
  if (sectionTerms(a).some((t) => !b.fields.headings.has(t) && !b.fields.text.has(t))) return said;
  // Nor is a table the part names by a column ("Which gid…") answered from a table without it.
  const columns = (u: RankedUnit) => new Set(termsOf((u.header ?? []).map((h) => h.text).join(' ')));
  if (
    a.kind === 'row' &&
    b.kind === 'row' &&
    keyTerms(q).some((t) => columns(a).has(t) && !columns(b).has(t) && !b.fields.text.has(t))
  )
    return said;
  if (a.kind === 'row' && b.kind === 'row' && a.ref === b.ref && a.group === b.group)
    return sayRows(a.seq < b.seq ? [a, b] : [b, a], q, frame);
  const more = sayUnit(second.u, q, index, frame);
  // The second said with what it points back to (a definition's "Thus, …" with its first sentence)
  // says the first again: it alone is the answer, never both.
  if (said.used.every((u) => more.used.includes(u)))
    return more.lines.join(' ').length <= PARAMS.maxChars ? more : said;
  if (more.used.some((u) => said.used.includes(u))) return said;
  // A line the first already says (a code block's lead-in, said as the first's sentence) is said once.
  const fresh = more.lines.filter((l) => !said.lines.includes(l));
  const size = [...said.lines, ...fresh].join(' ').length;
  if (size > PARAMS.maxChars || fresh.length === 0) return said;
  const kept = { ...more, lines: fresh };
  // Two sentences of one definition are said under its term once, in the source's order.
  const [first, next] = a.seq < b.seq ? [said, kept] : [kept, said];
  const joined = sameTermLines(first.lines, next.lines);
  if (samePart && (a.term ?? a.termMarkdown) && joined)
    return { lines: joined, used: [...said.used, ...kept.used], prose: said.prose };
  // One pointing back ("It also depends on ncurses") follows the earlier one of its section it points to.
  const lines =
    pointsBack(a.text) && sameSection && b.seq < a.seq
      ? [...kept.lines, ...said.lines]
      : [...said.lines, ...kept.lines];
  return { lines, used: [...said.used, ...kept.used], prose: said.prose };
}

/**
 * One line for two one-line answers under the same term and citation ("**-P** …: Run up to … [1]"
 * and "**-P** …: If … is 0, … [1]"): the term once, both sentences after it. Undefined otherwise.
 */
function sameTermLines(first: string[], next: string[]): string[] | undefined {
  if (first.length !== 1 || next.length !== 1) return undefined;
  const cited = /^(.+?): (.*) (\[\d+\])$/s;
  const [x, y] = [cited.exec(first[0]), cited.exec(next[0])];
  if (!x || !y || x[1] !== y[1] || x[3] !== y[3]) return undefined;
  return [`${x[1]}: ${x[2]} ${y[2]} ${x[3]}`];
}

/**
 * Whether a unit itself says a word the part asks about, other than its source's name: one only
 * under a heading that does ("Then, run the program to be debugged as usual." under "Output
 * streams") adds nothing to an answer from elsewhere. A part that asks only its source's name (a
 * page's section asked by its heading: "Features" of a passage titled "Features") is said by any
 * of that source's units.
 */
function saysAsked(u: RankedUnit, q: Query): boolean {
  const beyondTitle = keyTerms(q).filter((t) => !u.fields.title.has(t));
  return beyondTitle.length === 0 || beyondTitle.some((t) => saysTerm(u, t));
}

/** What the sources are closest to: the nearest unit's source and section, then the other sources. */
function topicsOf(index: UnitIndex, nearest: RankedUnit | undefined): string[] {
  const out: string[] = [];
  const add = (u: RankedUnit) => {
    const section = u.headings.at(-1);
    const topic = asText(section && section !== u.title ? `${u.title} (${section})` : u.title);
    if (!out.some((t) => t.startsWith(asText(u.title)))) out.push(topic);
  };
  if (nearest) add(nearest);
  for (const u of index.units) add(u);
  return out.slice(0, 4);
}

/** The main points: the first sentence of each section, sections matching the question first. */
function summary(index: UnitIndex, q: Query, frame: AnswerFrame): string {
  const firsts = new Map<string, RankedUnit>();
  for (const u of index.units) {
    if (u.kind !== 'sentence' && u.kind !== 'item') continue;
    const key = `${u.ref}:${u.headings.join('\n')}`;
    if (!firsts.has(key)) firsts.set(key, u);
  }
  const points = [...firsts.values()]
    .map((u) => ({ u, s: score(u, q, index) }))
    .sort((a, b) => b.s - a.s || a.u.seq - b.u.seq)
    .slice(0, MAX_POINTS)
    .map((x) => x.u)
    .sort((a, b) => a.seq - b.seq);
  if (points.length === 0) return frame.notCovered(topicsOf(index, undefined));
  return `${frame.summary}\n\n${points.map((u) => `- ${cite(u.markdown, u.ref)}`).join('\n')}`;
}
