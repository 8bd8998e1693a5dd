import type { PhrasingContent } from 'mdast';
import { markdownBlocks, withoutNavigation, type Block, type Cell } from './markdown.js';
import { inlineMarkdown, inlineText } from './markdown-tree.js';
import { inlineSentences, sentences } from './segment.js';
import { isCaption, looksLikeCode } from './statements.js';
import { isTerm } from './term-paragraph.js';
import { helpOptions } from './help-options.js';

/**
 * A document as the things it says, each with its place: what the answer model ranks and quotes,
 * and what decks, pages and mindmaps are built from. Every ingested format becomes Markdown first
 * (engines/extract), so one walk over its blocks serves PDF, DOCX, HTML, man pages and plain text.
 *
 * - `sentence`: a sentence of a paragraph (or of a long list item or a definition's description);
 * - `item`: a list item, with the text leading into its list (or its parent item);
 * - `row`: a table row with its table's header; each cell is addressable as "column of row-key";
 * - `definition`: a term and its description (a man page's option or exit code, a `<dl>` entry, a
 *   list item "`--flag`: what it does");
 * - `code`: a code block, and `codeLine`: each of its lines;
 * - `field`: a short `name: value` line of prose (a setting, a figure).
 */
export type UnitKind = 'sentence' | 'item' | 'row' | 'definition' | 'code' | 'codeLine' | 'field';

export interface DocUnit {
  kind: UnitKind;
  /** What a reader sees. */
  text: string;
  /** What an answer quotes: inline Markdown as the source wrote it (code verbatim, a code block fenced). */
  markdown: string;
  /** The headings above the unit, outermost first. */
  headings: string[];
  /** Position in the document. */
  order: number;
  /** Units of one paragraph, list, table, code block or run of definitions share a group. */
  group: number;
  /** The text leading into the unit's list, table or code block ("Options:"), or its parent list item. */
  leadIn?: string;
  /** The lead-in as written, its code spans and emphasis kept. */
  leadInMarkdown?: string;
  /**
   * For a one-word `name: value` line opening its section ("Default: false" under "override"), the
   * heading whose property it is.
   */
  subject?: string;
  /** A definition's term; for a sentence of a description, the term it describes. */
  term?: string;
  /** The term as written; alone (no `term`), the API a sentence's heading names: a label to say it under. */
  termMarkdown?: string;
  /** A definition's description. */
  description?: string;
  descriptionMarkdown?: string;
  /** Rows: the table's header, the row's cells aligned to it, and the row's key (its first filled cell). */
  header?: Cell[];
  cells?: Cell[];
  rowKey?: string;
  /** Fields and `name: value` code lines. */
  name?: string;
  value?: string;
  /** Code lines: the block's first line when it titles `name: value` lines below it ("BASIC benchmark averages"). */
  caption?: string;
  /** Code and code lines: the block's language. */
  lang?: string | null;
  /** Code lines of a block: the line's place in the block's text, from 0 (blank lines count). */
  line?: number;
  /** List items: nesting depth (1 for a top-level item). */
  depth?: number;
}

/** The units of a Markdown document, in document order. */
export function documentUnits(markdown: string): DocUnit[] {
  return unitsOfBlocks(markdownBlocks(markdown));
}

/** `name: value` (or `name = value`) with a short name. */
const NAME_VALUE = /^\s*([\p{L}\p{N}_][\p{L}\p{N}_ .-]{0,59}?)\s*[:=](?!\/\/)\s*(\S.{0,100}?)\s*,?\s*$/u;
const PROMPT = /^\$ \S[^\n]*$/;
/** What a command printed under it gives: `-> "2.0K"`, `=> 3`. */
const RESULT = /^(?:->|=>)\s/;
const BARE_URL = /^<?[a-z][a-z\d+.-]*:\/\/\S+?>?$/i;
/** A line of program code (a declaration, a statement), not a `name: value` fact. */
const STATEMENT = /^\s*(?:const|let|var|export|import|return|if|for|while|function|class)\b|[;{(]\s*$/;
const MAX_DESCRIPTION_PARAGRAPHS = 3;
/** A call's signature: a name and its parameters in brackets (`genSalt(rounds, minor, cb)`). */
const CALL_SIGNATURE = /^[\p{L}_$][\p{L}\p{N}_$.]*\s*\([^()]*\)$/u;
/** A fenced block without a language is prose when at least this share of its characters is in lines of words. */
const PROSE_SHARE = 0.8;
/**
 * A heading that names an API rather than a topic: one name, written as code is (a call, a dotted
 * path, camelCase or snake_case), with no spaces outside its brackets but before its return type.
 */
function apiName(heading: string | undefined): string | undefined {
  // The type a call's heading says it returns is not its name: `jaconv.toHebon(s) => string`.
  const name = heading
    ?.trim()
    .replace(/^`(.*)`$/, '$1')
    .replace(/(\))\s*(?:=>|->|→|:)\s*[^()]+$/u, '$1');
  if (!name || name.length > 80) return undefined;
  // A flag, alone or with the kind of thing it is ("`--stdout` オプション"), is an option's name.
  const flag = /^(--?\p{L}[\p{L}\p{N}-]*)(?:\s*(?:option|flag|オプション|选项|参数))?$/iu.exec(name)?.[1];
  if (flag) return flag;
  let bare = name;
  for (let prev = ''; prev !== bare;)
    [prev, bare] = [bare, bare.replace(/\([^()]*\)|\[[^[\]]*\]|\{[^{}]*\}|<[^<>]*>/g, '')];
  if (/\s/.test(bare)) return undefined;
  if (/[\p{L}\p{N}_$]\(/u.test(name)) return name;
  // A product's name is capitalised ("TypeScript", "Node.js"); an identifier starts in lower case.
  return /^[\p{Ll}_$.]/u.test(name) && /[\p{L}_$]\.[\p{L}_$]|\p{Ll}\p{Lu}|\p{L}_\p{L}/u.test(bare) ? name : undefined;
}

/** A term naming an option (`-c`, `**--tries=**_number_`), in the given section when one is given. */
const isOption = (b: Block | undefined, section?: string[]): b is Block =>
  b !== undefined &&
  isTerm(b) &&
  /^--?\p{L}/u.test(b.text.trim()) &&
  (section === undefined || b.section.join('\n') === section.join('\n'));

/** A list item longer than this is also said sentence by sentence. */
const LONG_ITEM = 300;

/** The units of already-walked blocks (markdown.ts's markdownBlocks), in order. */
export function unitsOfBlocks(input: Block[]): DocUnit[] {
  // A quote's blocks are read in place; its end is a boundary (an empty HTML block): a note in a
  // quote ("> **Size (gzip):** 304 bytes") leads into nothing after it, as a table below it.
  const blocks = withoutNavigation(
    input.flatMap((b): Block[] =>
      b.kind === 'blockquote'
        ? [...b.children, { kind: 'html', value: '', section: b.section, text: '', markdown: '' }]
        : [b],
    ),
  );
  const units: DocUnit[] = [];
  let group = 0;
  const push = (u: Omit<DocUnit, 'order'>) => units.push({ ...u, order: units.length });
  // The paragraph just before the current block, when nothing came between: a lead-in.
  let lead: string | undefined;
  // Open list run: its lead-in and the items by depth (a nested item's lead-in is its parent).
  let listLead: string | undefined;
  let parents: string[] = [];
  let listGroup = -1;
  // An item ending in a colon at the items' own depth: a nested list printed flat (a PDF's) leads on so.
  let colonLead: { depth: number; text: string } | undefined;
  // The last definition: where its description ended, and how many paragraphs it had.
  let previousEntry: { end: number; paragraphs: number; leadIn: string | undefined } | undefined;
  // A definition whose description leads into a list ("…the following arguments:"): the paragraph
  // after the list goes on describing its term ("The default mail command is /usr/bin/mail.").
  let listedTerm: { term: string; termMarkdown: string; section: string } | undefined;
  // Each lead-in's Markdown, by its text: a lead-in is a paragraph's or an item's text.
  const markdownOf = new Map<string, string>();
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i];
    const headings = b.section;
    if (b.kind === 'paragraph' || b.kind === 'listItem') markdownOf.set(b.text, b.markdown);
    if (b.kind !== 'listItem') parents = [];
    const goesOn = listedTerm?.section === headings.join('\n') && blocks[i - 1]?.kind === 'listItem';
    const described = goesOn && b.kind === 'paragraph' && !isTerm(b) ? listedTerm : undefined;
    if (b.kind !== 'listItem') listedTerm = undefined;
    switch (b.kind) {
      case 'heading':
        lead = undefined;
        continue;
      case 'paragraph': {
        if (isTerm(b)) {
          // An option's other names, each its own paragraph over one description (groff's `-c` over
          // `--continue`), are one term.
          let names = 0;
          while (isOption(b) && isOption(blocks[i + names + 1], headings)) names++;
          const term = names > 0 ? blocks.slice(i, i + names + 1) : [b];
          // A line break inside a term (groff's `-T seconds<br>--timeout=seconds`) parts two names too.
          const termText = term.map((t) => t.text.replace(/\s*\n\s*/g, ', ')).join(', ');
          const termMarkdown = term.map((t) => t.markdown.replace(/\\\n(?:\\(?=[-+]))?/g, ', ')).join(', ');
          const start = i;
          i += names;
          // A term and the paragraphs describing it, up to the next term or heading.
          const desc: Block[] = [];
          for (let j = i + 1; j < blocks.length && desc.length < MAX_DESCRIPTION_PARAGRAPHS; j++) {
            const d = blocks[j];
            if (d.kind !== 'paragraph' || d.section.join('\n') !== headings.join('\n')) break;
            // A bare value before the next term is this term's description (od's "**b**" over "512").
            const after = blocks[j + 1];
            const value =
              desc.length === 0 && !/^[*`_]/.test(d.markdown) && (after?.kind !== 'paragraph' || isTerm(after));
            if (isTerm(d) && !value) break;
            // A later paragraph ending in a colon leads into what follows ("Interpreted sequences are:").
            if (desc.length > 0 && /[:：]$/.test(d.text.trim())) break;
            desc.push(d);
          }
          // The last entry of a run whose entries each have one paragraph has one too: the
          // paragraphs after it are the section's ("Exit status is 0 if…" after cmp's -v).
          const next = blocks[i + desc.length + 1];
          const runEnds = !(next && next.kind === 'paragraph' && isTerm(next));
          if (runEnds && previousEntry?.end === i - 1 && previousEntry.paragraphs === 1) desc.splice(1);
          // A description written as a lower-case fragment ("do not follow symlinks") goes on in
          // such fragments: a sentence after it ("Sending a USR1 signal to a running 'dd'…") is the section's.
          // A fragment ending in ";" reads on, and "SIGNAL may be…" names a value, not a sentence's start.
          const sentence = desc.findIndex((d, k) => k > 0 && /^\p{Lu}\p{Ll}/u.test(d.text));
          if (/^\p{Ll}.*[^;,]$/su.test(desc[0]?.text.trim() ?? '') && sentence > 0) desc.splice(sentence);
          // A run of entries is led into by the paragraph before its first ("FORMAT is one of:").
          const leadIn = previousEntry?.end === start - 1 ? previousEntry.leadIn : lead;
          previousEntry = desc.length > 0 ? { end: i + desc.length, paragraphs: desc.length, leadIn } : undefined;
          if (desc.length > 0) {
            const g = group++;
            const description = desc.map((d) => d.text).join('\n\n');
            const descriptionMarkdown = desc.map((d) => d.markdown).join('\n\n');
            push({
              kind: 'definition',
              text: `${termText}\n${description}`,
              markdown: `${termMarkdown}\n\n${descriptionMarkdown}`,
              headings,
              group: g,
              term: termText,
              termMarkdown,
              description,
              descriptionMarkdown,
              leadIn,
            });
            for (const d of desc)
              for (const s of sentencesOf(d)) push({ ...s, headings, group: g, term: termText, termMarkdown, leadIn });
            // A description ending in a colon ("Default:") leads into the block after it.
            const leads = /[:：]$/.test(desc.at(-1)!.text.trim());
            if (leads && blocks[i + desc.length + 1]?.kind === 'listItem')
              listedTerm = { term: termText, termMarkdown, section: headings.join('\n') };
            i += desc.length;
            lead = leads ? desc.at(-1)!.text : undefined;
            continue;
          }
          i = start;
        }
        // A command printed as a paragraph after its shell prompt ("$ numfmt --to=iec 2048"), with the
        // result lines under it ('-> "2.0K"'), is code: a full stop after it would change it.
        if (PROMPT.test(b.text)) {
          let j = i + 1;
          while (blocks[j]?.kind === 'paragraph' && RESULT.test(blocks[j].text)) j++;
          const value = blocks
            .slice(i, j)
            .map((x) => x.text)
            .join('\n');
          const fence = '`'.repeat(Math.max(3, ...(value.match(/`+/g) ?? []).map((r) => r.length + 1)));
          const g = group++;
          push({
            kind: 'code',
            text: value,
            markdown: `${fence}\n${value}\n${fence}`,
            headings,
            group: g,
            leadIn: lead,
          });
          for (const line of value.split('\n'))
            push({ kind: 'codeLine', text: line, markdown: codeSpan(line), headings, group: g });
          i = j - 1;
          lead = undefined;
          continue;
        }
        // A paragraph that is only an address (a rule's home page) says nothing a reader asks about,
        // unless it is all its section says (nano's "Web Page" over its address).
        const alone =
          blocks[i - 1]?.kind === 'heading' && (i + 1 === blocks.length || blocks[i + 1].kind === 'heading');
        if (BARE_URL.test(b.text.trim()) && !alone) {
          lead = undefined;
          continue;
        }
        const fields = fieldsOf(b);
        const api = apiName(headings.at(-1));
        if (fields) for (const field of fields) push({ ...field, headings, group: group++, leadIn: lead });
        // A caption over a code block states nothing of its own: it is the block's lead-in alone.
        else if (isCaption(b, blocks[i + 1], blocks[i + 2])) group++;
        else {
          const g = group++;
          // Under a heading that is an API's name (`cookie.parseCookie(str, options)`, `httpOnly`) the
          // paragraphs say what that name does: each sentence is said under it, as a definition's are.
          const named = described
            ? { term: described.term, termMarkdown: described.termMarkdown }
            : api
              ? { termMarkdown: codeSpan(api) }
              : {};
          for (const s of sentencesOf(b)) push({ ...s, headings, group: g, ...named });
        }
        lead = b.text;
        continue;
      }
      case 'listItem': {
        const prev = blocks[i - 1];
        if (prev?.kind !== 'listItem') {
          listLead = lead;
          listGroup = group++;
          parents = [];
          colonLead = undefined;
        }
        parents = parents.slice(0, b.depth - 1);
        // Items nested under it are its own (their parent leads them), and then its siblings are not.
        if (colonLead && b.depth !== colonLead.depth) colonLead = undefined;
        const leadIn =
          b.depth > 1 && parents[b.depth - 2]
            ? parents[b.depth - 2]
            : colonLead?.depth === b.depth
              ? colonLead.text
              : listLead;
        if (/[:：]$/.test(b.text.trim())) colonLead = { depth: b.depth, text: b.text };
        parents[b.depth - 1] = b.text;
        const base = { headings, group: listGroup, leadIn, depth: b.depth };
        const def = itemDefinition(b);
        const field = def ? null : fieldOf(b);
        if (def) push({ kind: 'item', text: b.text, markdown: b.markdown, ...base, ...def });
        else if (field) push({ ...field, ...base });
        else push({ kind: 'item', text: b.text, markdown: b.markdown, ...base });
        if (b.text.length > LONG_ITEM) for (const s of sentencesOf(b)) push({ ...s, ...base });
        // A list of one item is a step's label ("3. Full mode"): the code or table right after it is its content.
        lead = prev?.kind !== 'listItem' && blocks[i + 1]?.kind !== 'listItem' ? b.text : undefined;
        continue;
      }
      case 'code': {
        if (!b.lang && isProse(b.value)) {
          // A plain-text document kept in a fence (hard-wrapped lines) is read as paragraphs of prose.
          for (const para of proseParagraphs(b.value)) {
            const g = group++;
            // Code shown inside the text (an indented example) stays code, line by line.
            if (para.code) {
              for (const line of para.lines)
                push({ kind: 'codeLine', text: line, markdown: codeSpan(line.trim()), headings, group: g });
              continue;
            }
            for (const text of numbered(sentences(para.lines.map((l) => l.trim()).join(' '))))
              push({
                kind: 'sentence',
                text,
                markdown: inlineMarkdown([{ type: 'text', value: text }]),
                headings,
                group: g,
              });
          }
          lead = undefined;
          continue;
        }
        const g = group++;
        push({ kind: 'code', text: b.value, markdown: b.markdown, headings, group: g, leadIn: lead, lang: b.lang });
        const all = b.value.split('\n');
        const lines = all.filter((l) => l.trim());
        const fact = (line: string) => (STATEMENT.test(line) ? null : NAME_VALUE.exec(line));
        const caption =
          lines.length > 1 && !fact(lines[0]) && lines.slice(1).every((l) => fact(l)) ? lines[0].trim() : undefined;
        // A comment opening a run of lines names them ("// Literals" over a call), up to a blank line.
        const commentOf = commentsAbove(b.value);
        for (const [at, line] of all.entries()) {
          if (!line.trim()) continue;
          const m = fact(line);
          const above = caption ?? commentOf.get(line);
          push({
            kind: 'codeLine',
            text: line,
            markdown: codeSpan(line.trim()),
            headings,
            group: g,
            leadIn: lead,
            lang: b.lang,
            line: at,
            ...(above && line.trim() !== above ? { caption: above } : {}),
            ...(m ? { name: m[1].trim(), value: m[2].trim() } : {}),
          });
        }
        // A command's help text lists its options: each is a definition as well as lines of code,
        // led into as the block is ("As a command-line utility:").
        for (const o of helpOptions(b.value)) {
          const dg = group++;
          const descriptionMarkdown = inlineMarkdown([{ type: 'text', value: o.description }]);
          const term = { term: o.term, termMarkdown: codeSpan(o.term), leadIn: lead };
          push({
            kind: 'definition',
            text: `${o.term}\n${o.description}`,
            markdown: `${codeSpan(o.term)}\n\n${descriptionMarkdown}`,
            headings,
            group: dg,
            ...term,
            description: o.description,
            descriptionMarkdown,
          });
          for (const s of inlineSentences([{ type: 'text', value: o.description }]))
            push({ kind: 'sentence', text: s.text, markdown: s.markdown, headings, group: dg, ...term });
        }
        // A call's signature alone on its line (`genSalt(rounds, minor, cb)`, a PDF's nested item
        // set in code) leads into the list of its parameters under it.
        const signature = !b.value.includes('\n') && CALL_SIGNATURE.test(b.value.trim());
        lead = signature && blocks[i + 1]?.kind === 'listItem' ? b.value.trim() : undefined;
        continue;
      }
      case 'table': {
        const g = group++;
        for (const row of b.rows) {
          const cells = aligned(row, b.header);
          const key = cells.find((c) => c?.text)?.text ?? '';
          push({
            kind: 'row',
            text: row.map((c) => c.text).join(' | '),
            markdown: tableMarkdown(b.header, [cells]),
            headings,
            group: g,
            leadIn: lead,
            header: b.header,
            cells: cells.map((c) => c ?? { text: '', markdown: '' }),
            rowKey: key,
          });
        }
        lead = undefined;
        continue;
      }
      default:
        lead = undefined;
        continue;
    }
  }
  const section = (u: DocUnit | undefined) => u?.headings.join('\n');
  // The fields a section opens with (`Type: …`, `Default: …` under `concurrency`) are its subject's:
  // one pass, each unit's from the one before it (no recursion over a long run of fields).
  // A label over a code block ("Type:" over `type threshold = number;`) is one of those fields too.
  // So does a bold note over them ("**Only for `pMap` and `pMapKeyed`**").
  const label = (u: DocUnit) =>
    /^\p{L}[\p{L} ]{0,20}:$/u.test(((u.kind === 'sentence' ? u.text : u.leadIn) ?? '').trim()) ||
    (u.kind === 'sentence' && /^\*\*[^*]{1,60}\*\*$/.test(u.markdown));
  const opening: boolean[] = [];
  for (const [i, u] of units.entries()) {
    const before = units[i - 1];
    opening.push(
      i === 0 || section(before) !== section(u) || ((before.kind === 'field' || label(before)) && opening[i - 1]),
    );
  }
  const isProperty = (u: DocUnit, i: number) =>
    u.kind === 'field' && /^\S+$/.test(u.name ?? '') && u.headings.length > 0 && opening[i];
  // The paragraphs after a section's properties describe their subject, as a definition's its term
  // ("Type: function", "Default: undefined", then "Custom function for formatting strings…"), up
  // to anything else: a list, a block, a heading.
  const describes: boolean[] = [];
  for (const [i, u] of units.entries()) {
    const before = units[i - 1];
    const after = i > 0 && (isProperty(before, i - 1) || describes[i - 1]);
    describes.push(u.kind === 'sentence' && !u.term && after && section(before) === section(u));
  }
  return units.map((u, i) => ({
    ...u,
    ...(u.leadIn && markdownOf.has(u.leadIn) ? { leadInMarkdown: markdownOf.get(u.leadIn) } : {}),
    ...(isProperty(u, i) ? { subject: u.headings.at(-1) } : {}),
    ...(describes[i]
      ? {
          term: u.headings.at(-1),
          termMarkdown: u.termMarkdown ?? inlineMarkdown([{ type: 'text', value: u.headings.at(-1)! }]),
        }
      : {}),
  }));
}

/** A cell of a row by its column's name (case and spacing ignored), as in "End Of LTS Date of 8.x". */
export function cellOf(row: DocUnit, column: string): Cell | undefined {
  const key = squash(column);
  const at = (row.header ?? []).findIndex((h) => squash(h.text) === key);
  return at < 0 ? undefined : row.cells?.[at];
}

/** Every filled cell of a row with its address, "column of row-key". */
export function rowCells(row: DocUnit): Array<{ column: string; cell: Cell; address: string }> {
  return (row.header ?? []).flatMap((h, i) => {
    const cell = row.cells?.[i];
    return cell?.text ? [{ column: h.text, cell, address: `${h.text} of ${row.rowKey ?? ''}` }] : [];
  });
}

/** A table as GFM Markdown: the header and the given rows. */
export function tableMarkdown(header: Cell[], rows: Array<Array<Cell | undefined>>): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    line(header.map((c) => c.markdown)),
    line(header.map(() => '---')),
    ...rows.map((r) => line(header.map((_, i) => r[i]?.markdown ?? ''))),
  ].join('\n');
}

/** A line as a code span: a fence of backticks longer than any run inside it, so it reads verbatim. */
export function codeSpan(line: string): string {
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = line.startsWith('`') || line.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${line}${pad}${fence}`;
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * A row's cells aligned to the header. Cells align from the left, as in GFM, except where the
 * header shows a label spanning two columns (an empty second header cell): a short row there lost
 * its first cells to a label spanning rows above it, so its cells belong to the last columns.
 */
function aligned(row: Cell[], header: Cell[]): Array<Cell | undefined> {
  const shift = header.length > row.length && header[1]?.text === '' ? header.length - row.length : 0;
  return header.map((_, i) => (i - shift >= 0 ? row[i - shift] : undefined));
}

/**
 * A list item that opens with a quoted name and says what it is: '"still reachable" means …',
 * “Tier 2” – … . The quoted words are its term.
 */
const QUOTED_TERM =
  /^\s*(["“'‘「])([^"”'’」\n]{1,60})["”'’」]\s*(?:[:—–-]\s|(?:means?|is|are|refers? to|stands? for|indicates?)\s)/u;

/** A name of at most four words, capitalised or a symbol, then a spaced dash: "Accurate matching - Using…". */
const PLAIN_TERM = /^\s*((?:\p{Lu}|[\p{Ll}\p{N}_.$-]*[._$])[\p{L}\p{N}_.$-]*(?: [\p{L}\p{N}_.$-]+){0,3}) [-–—] \S/u;

/** What parts an item's term from its description: a colon or a dash and a space, or a full-width colon. */
const ITEM_SEPARATOR = /^\s*(?:(?:[:—–-]|\s-)\s+|：\s*)/;

/** A list item "`--flag`: what it does" / "**name** - what it is": a term and its description. */
function itemDefinition(b: Block): Partial<DocUnit> | null {
  const nodes = b.inline ?? [];
  const first = nodes[0];
  const rest = nodes.slice(1);
  const quoted = first?.type === 'text' ? QUOTED_TERM.exec(first.value) : null;
  if (quoted) {
    // The item is said as written; its quoted name is what it is about.
    const named = quoted[0].trimStart();
    return { term: quoted[2], termMarkdown: named.slice(0, quoted[1].length + quoted[2].length + 1) };
  }
  // "Fast - Loads in about 2ms": a name of a few words before a dash (a PDF or plain text keeps no bold).
  const plain = first?.type === 'text' ? PLAIN_TERM.exec(first.value) : null;
  if (plain) return { term: plain[1], termMarkdown: plain[1] };
  if (!first || (first.type !== 'strong' && first.type !== 'inlineCode')) return null;
  const next = rest[0];
  // A full-width colon takes no space after it: "`hkp`：且转换香港词汇". The description may open
  // with code of its own and go on ("`packages/data`：`@pinyin-pro/data` 扩展字典包"); code alone
  // after the name is a setting's type ("`disabled`: `boolean`"), said with the items under it.
  if (!next || next.type !== 'text') return null;
  // A code span then a capitalised sentence is a name and what it is, too: "`glob` Boolean flag to…".
  const separator =
    ITEM_SEPARATOR.exec(next.value) ?? (first.type === 'inlineCode' ? /^\s+(?=\p{Lu}\p{Ll})/u.exec(next.value) : null);
  if (!separator || (separator[0] === next.value && rest.length < 3)) return null;
  const termMarkdown = inlineMarkdown([first]);
  const term = first.type === 'inlineCode' ? first.value : b.text.slice(0, b.text.length - textOf(rest).length).trim();
  const descNodes: PhrasingContent[] = [{ ...next, value: next.value.replace(ITEM_SEPARATOR, '') }, ...rest.slice(1)];
  return {
    term,
    termMarkdown,
    description: textOf(descNodes).trim(),
    descriptionMarkdown: inlineMarkdown(descNodes),
  };
}

const textOf = inlineText;

type Field = Pick<DocUnit, 'kind' | 'text' | 'markdown' | 'name' | 'value'>;

/** A short `name: value` paragraph or item that is not a sentence: a setting or a figure. */
function fieldOf(b: Pick<Block, 'text' | 'markdown'>): Field | null {
  const text = b.text.trim();
  if (text.length > 80 || /[!?。]$/.test(text) || text.includes('\n')) return null;
  const m = NAME_VALUE.exec(text.replace(/\.$/, ''));
  // A full stop ends a sentence ("Note: read this."), unless it follows a one-word value ("default: `true`.").
  if (!m || (text.endsWith('.') && (/\s/.test(m[2].trim()) || /\.\s/.test(m[1])))) return null;
  // A name of four words or more says something ("Preserve consecutive uppercase characters: …"): a sentence.
  if (m[1].trim().split(/\s+/).length >= 4) return null;
  return { kind: 'field', text, markdown: b.markdown, name: m[1].trim(), value: m[2].trim() };
}

/**
 * A paragraph's `name: value` lines, each a field: one line, or lines broken apart ("Type: `number`",
 * "Minimum: `1`", "Default: `Infinity`"). Lines broken apart after a first field are each a unit, a
 * field or a line said as it is ("Values:" over a list, a value too long for a field). Null otherwise.
 */
function fieldsOf(b: Block): Field[] | null {
  const lines = b.text.trim().split('\n');
  const marked = b.markdown.trim().split(/\\\n| {2,}\n|\n/);
  if (lines.length !== marked.length) return null;
  const fields = lines.map((text, i) => fieldOf({ text, markdown: marked[i] }));
  if (fields[0] === null) return null;
  return fields.map((f, i) => f ?? { kind: 'sentence', text: lines[i], markdown: marked[i] });
}

/** A prose block's sentences as units (inline Markdown kept: code spans are never split). */
function sentencesOf(b: Block): Array<Pick<DocUnit, 'kind' | 'text' | 'markdown'>> {
  const found = b.inline ? inlineSentences(b.inline) : [{ text: b.text, markdown: b.markdown }];
  return found
    .filter((s) => /[\p{L}\p{N}]/u.test(s.text))
    .map((s) => ({ kind: 'sentence' as const, text: s.text, markdown: s.markdown }));
}

/** Lines of only rules or box drawing ("-----", "====="): separators, not text. */
const RULE = /^[\s\-=_*~#+|]*$/;

/**
 * A fenced block with no language that is prose, not code: nearly all of its text is in lines of
 * words, ending sentences (a plain-text FAQ or README kept in a fence for its line breaks).
 */
function isProse(value: string): boolean {
  const lines = value.split('\n').filter((l) => !RULE.test(l));
  if (lines.length < 3) return false;
  // A line set out in columns (a help text's option, a gap of spaces, its description) is no prose line.
  const prose = lines.filter(
    (l) => !looksLikeCode(l) && !/\S {3,}\S/.test(l) && (l.match(/\p{L}{2,}/gu) ?? []).length >= 4,
  );
  const share = prose.join('').length / lines.join('').length;
  return share >= PROSE_SHARE && (value.match(/\p{Ll}[.?!](?:\s|$)/gu) ?? []).length >= 2;
}

/** A fenced block's paragraphs: their lines (rules left out), and whether they read as code. */
function proseParagraphs(value: string): Array<{ lines: string[]; code: boolean }> {
  return value
    .split(/\n\s*\n/)
    .map((p) => p.split('\n').filter((l) => !RULE.test(l)))
    .filter((lines) => lines.some((l) => /\p{L}/u.test(l)))
    .map((lines) => ({ lines, code: lines.filter((l) => looksLikeCode(l)).length * 2 > lines.length }));
}

/** Sentences with a section number the splitter cut off ("1.2.") joined back to the sentence it numbers. */
function numbered(said: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < said.length; i++)
    out.push(/^\d+(?:\.\d+)*\.?$/.test(said[i]) && i + 1 < said.length ? `${said[i]} ${said[++i]}` : said[i]);
  return out;
}

const CODE_COMMENT = /^\s*(?:\/\/|#(?!!)|--\s|\/\*)\s*(.*?)\s*(?:\*\/)?$/;

/**
 * Each line of a code block under a comment that opens its paragraph of lines: that comment's
 * words, all its lines. A comment right after a line of code says what that line gives (`// output: '1 KB'`).
 */
function commentsAbove(code: string): Map<string, string> {
  const out = new Map<string, string>();
  let comment: string | undefined;
  let opening = true;
  for (const line of code.split('\n')) {
    if (!line.trim()) {
      comment = undefined;
      opening = true;
      continue;
    }
    if (CODE_COMMENT.test(line)) {
      // A comment of several lines is one: its first line says as much of what follows as its last.
      const words = CODE_COMMENT.exec(line)![1];
      if (opening && words) comment = comment ? `${comment} ${words}` : words;
    } else {
      opening = false;
      if (comment && !out.has(line)) out.set(line, comment);
    }
  }
  return out;
}

/**
 * The term each sentence of a definition describes, by the sentence's text: a man page's option
 * (`-k --keep`) for "Keep (don't delete) input files…". A deck, page or mindmap point made of such a
 * sentence names its term, or "This option is supported only on some non-Unix systems" says nothing.
 */
export function definedTerms(markdown: string): Map<string, string> {
  const terms = new Map<string, string>();
  for (const u of documentUnits(markdown))
    if (u.kind === 'sentence' && u.termMarkdown && !terms.has(u.text)) terms.set(u.text, u.termMarkdown);
  return terms;
}
