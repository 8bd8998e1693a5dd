// Generates most of bench/content's questions from the documents' own structure, so that nobody picks
// them to suit the engine: a table cell by its row and column, an option's description and default
// (man pages' option lists), a definition's term, a list's items, a command in a code block. Reads the
// Markdown of each document (docs/*.md, or sources/*.md for a web page, PDF or DOCX made from
// Markdown) and the groff HTML of man pages; plain-text documents only get the hand-written
// questions. Every fact is checked to be in the document's text before a question is kept (a PDF's
// as pdftotext reads it).
//
// Merges them with the hand-written questions (questions.hand.dev.json, questions.hand.heldout.json)
// and writes one file per split (questions.dev.json, questions.heldout.json); a question's split is
// that of its documents (splits.json), a question over no document carries its own. Deterministic:
// run it again after changing the corpus, the hand-written questions or this script (needs pdftotext).
//
//   node bench/content/make-questions.mjs
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import * as htmlparser2 from 'htmlparser2';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString } from 'mdast-util-to-string';
import { gfm } from 'micromark-extension-gfm';

const HERE = import.meta.dirname;
const splits = JSON.parse(readFileSync(path.join(HERE, 'splits.json'), 'utf8')).docs;
// Hand-written questions, one file per split (so that tuning on dev never opens a held-out one).
const hand = ['dev', 'heldout'].flatMap((split) =>
  JSON.parse(readFileSync(path.join(HERE, `questions.hand.${split}.json`), 'utf8')),
);
/** At most this many generated questions of each kind per document, spread over the document. */
const PER_KIND = 5;

const parse = (md) => fromMarkdown(md, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
const squash = (s) => s.normalize('NFKC').replace(/\s+/g, ' ').trim();
const slug = (s) =>
  squash(s)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40);

/** Facts worth asking for: not a tick, a dash, a lone yes/no or a word too short to tell apart. */
const TRIVIAL = /^(?:[-–—✓✔✗✘❌x*]|yes|no|true|false|n\/a|none|tbd|\?|[\p{P}\p{S}\s]*)$/iu;
/** A type name or a one- or two-digit number is too easily in a wrong answer by chance to tell. */
const WEAK = /^(?:boolean|string|number|function|object|array|any|\d{1,2})$/i;
const worthAsking = (s) =>
  s.length >= 2 && s.length <= 120 && !TRIVIAL.test(s) && !WEAK.test(s) && !/^!\[|^https?:|[<>{}]/.test(s);

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** The first words of a description: what a faithful answer quotes (the engine quotes verbatim). */
function lead(text, max = 7) {
  const sentence = squash(text).split(/(?<=[.;:!?])\s|(?<=[。；：！？])/u)[0];
  if (CJK.test(sentence.slice(0, 12)) && !/\s/.test(sentence.slice(0, 20)))
    return [...sentence]
      .slice(0, 12)
      .join('')
      .replace(/[\p{P}\s]+$/u, '');
  return sentence
    .split(' ')
    .slice(0, max)
    .join(' ')
    .replace(/[.,;:]+$/, '');
}

/** `count` items spread evenly over `items` (the first, the last and between), in order. */
function spread(items, count) {
  if (items.length <= count) return items;
  const out = [];
  for (let i = 0; i < count; i++) out.push(items[Math.round((i * (items.length - 1)) / (count - 1))]);
  return [...new Set(out)];
}

/** Headings in front of each node: the path a question names ("under 'Options'"). */
function withHeadings(tree, types) {
  const out = [];
  let heading = '';
  const walk = (node, top) => {
    if (node.type === 'heading') heading = squash(toString(node));
    else if (types.includes(node.type)) out.push({ node, heading, top });
    if (node.children && !types.includes(node.type))
      for (const child of node.children) walk(child, top && node.type === 'root');
  };
  walk(tree, true);
  return out;
}

/** Questions from a Markdown document's tables, definition-like list items, lists and commands. */
function fromMarkdownDoc(file, md, subject, lang) {
  const zh = lang === 'zh';
  const ja = lang === 'ja';
  const tree = parse(md);
  const out = [];
  const ask = (kind, question, facts, extra = '') =>
    out.push({
      id: `${slug(file.replace(/\.\w+$/, ''))}-${kind}-${slug(extra || facts.flat()[0])}`,
      kind,
      docs: [file],
      question,
      facts,
    });

  // Tables: each cell of a row by its row key (the first cell) and its column (the header).
  const cells = [];
  for (const { node, heading } of withHeadings(tree, ['table'])) {
    const [head, ...rows] = node.children.map((row) => row.children.map((c) => squash(toString(c))));
    const keys = rows.map((r) => r[0]);
    for (const row of rows) {
      if (!worthAsking(row[0]) || keys.filter((k) => k === row[0]).length > 1) continue;
      for (let c = 1; c < row.length; c++)
        if (head[c] && worthAsking(row[c]) && worthAsking(head[c]))
          cells.push({ heading, column: head[c], key: row[0], value: row[c] });
    }
  }
  for (const cell of spread(cells, PER_KIND * 2)) {
    const where = cell.heading ? (zh ? `「${cell.heading}」中` : ` (under "${cell.heading}")`) : '';
    const q = zh
      ? `在 ${subject} 的${where}表格里，${cell.key} 的「${cell.column}」是什么？`
      : ja
        ? `${subject} の${cell.heading ? `「${cell.heading}」の` : ''}表で、${cell.key} の「${cell.column}」は何ですか？`
        : `In ${subject}${where}, what is the ${cell.column} of ${cell.key}?`;
    ask('table-cell', q, [cell.value], `${cell.key}-${cell.column}`);
  }

  // Definition-like list items: "`term`: description" or "**term** - description".
  const defs = [];
  for (const { node, heading } of withHeadings(tree, ['listItem'])) {
    const para = node.children[0];
    if (para?.type !== 'paragraph') continue;
    const [first, second] = para.children;
    if (!first || !['inlineCode', 'strong'].includes(first.type) || second?.type !== 'text') continue;
    const term = squash(toString(first));
    const m = /^\s*(?:[:：]|[-–—]\s)\s*(.+)/su.exec(toString({ type: 'root', children: para.children.slice(1) }));
    if (!m || !worthAsking(term) || /^['"[{]/.test(term) || squash(m[1]).length < 12) continue;
    defs.push({ heading, term, desc: squash(m[1]) });
  }
  const leads = defs.map((d) => lead(d.desc));
  const distinct = defs.filter(
    (d, i) => leads[i].length >= 8 && leads.indexOf(leads[i]) === leads.lastIndexOf(leads[i]),
  );
  for (const d of spread(distinct, PER_KIND)) {
    const q = zh
      ? `${subject} 中 ${d.term} 是什么意思？`
      : ja
        ? `${subject} の ${d.term} は何ですか？`
        : `In ${subject}, what is ${d.term}${d.heading ? ` (under "${d.heading}")` : ''}?`;
    ask('definition', q, [lead(d.desc)], d.term);
  }

  // API headings ("### options.width", "### `uuid.parse(str)`") and what follows them: the first
  // paragraph says what it does, a "Default: x" or "(…, default: `x`)" line its default.
  const apis = [];
  const top = tree.children;
  for (let i = 0; i < top.length; i++) {
    const h = top[i];
    if (h.type !== 'heading' || h.depth < 2) continue;
    const name = squash(toString(h));
    const code = h.children.filter((c) => c.type === 'inlineCode').reduce((n, c) => n + c.value.length, 0);
    const codeLike = code >= 0.6 * name.length || /^[a-z_$][\w$]*(?:\.[\w$]+)+(?:\(.*\))?$/.test(name);
    if (!codeLike || name.length > 60) continue;
    let desc = null;
    let def = null;
    for (let j = i + 1; j < top.length && top[j].type !== 'heading'; j++) {
      if (top[j].type !== 'paragraph') continue;
      const text = squash(toString(top[j]));
      const d = /^Default:\s*(.+)$|\bdefault:\s*`([^`]+)`/i.exec(text);
      if (d && !def) def = squash(d[1] ?? d[2]).replace(/\s*\(.*$/, '');
      else if (!desc && !/^(?:Type|Example|Returns?)\b/i.test(text) && text.length >= 15) desc = text;
    }
    apis.push({ name, desc, def });
  }
  for (const a of spread(
    apis.filter((x) => x.desc),
    PER_KIND,
  )) {
    const q = zh
      ? `${subject} 中 ${a.name} 是做什么的？`
      : ja
        ? `${subject} の ${a.name} は何をしますか？`
        : `In ${subject}, what does ${a.name} do?`;
    ask('definition', q, [lead(a.desc)], a.name);
  }
  for (const a of spread(
    apis.filter((x) => x.def && worthAsking(x.def)),
    PER_KIND,
  )) {
    const q = zh
      ? `${subject} 中 ${a.name} 的默认值是什么？`
      : ja
        ? `${subject} の ${a.name} のデフォルト値は何ですか？`
        : `What is the default of ${a.name} in ${subject}?`;
    ask('option-default', q, [a.def], `${a.name}-default`);
  }

  // Lists of short items under a heading: the items.
  const lists = [];
  for (const { node, heading } of withHeadings(tree, ['list'])) {
    const items = node.children.map((li) => squash(toString(li.children[0] ?? li)));
    const linksOnly = node.children.every(
      (li) => li.children[0]?.children?.length === 1 && li.children[0].children[0].type === 'link',
    );
    if (linksOnly || /contents|目次|目录|author|related|license/i.test(heading)) continue;
    if (!heading || items.length < 3 || items.length > 12 || items.some((i) => i.length > 90 || i.length < 2)) continue;
    lists.push({ heading, items });
  }
  for (const l of spread(lists, 2)) {
    const q = zh
      ? `列出 ${subject} 中「${l.heading}」下的各项。`
      : ja
        ? `${subject} の「${l.heading}」の項目を挙げてください。`
        : `List the items under "${l.heading}" in ${subject}.`;
    ask(
      'list',
      q,
      spread(l.items, 3).map((i) => lead(i, 4)),
      l.heading,
    );
  }

  // Shell commands in code blocks, by the heading they sit under.
  const commands = [];
  for (const { node, heading } of withHeadings(tree, ['code'])) {
    if (!heading || !/^(?:sh|bash|shell|console|zsh|cmd|powershell|\$)?$/i.test(node.lang ?? '')) continue;
    const line = node.value
      .split('\n')
      .map((l) => l.replace(/^\s*[$>]\s*/, '').trim())
      .find((l) => /^(?:npm|npx|yarn|pnpm|bower|node|deno|bun|DEBUG=|set |\$env:)/.test(l));
    if (line) commands.push({ heading, line });
  }
  for (const c of spread(commands, 2)) {
    const q = zh
      ? `在 ${subject} 中，「${c.heading}」用什么命令？`
      : ja
        ? `${subject} の「${c.heading}」にあるコマンドは何ですか？`
        : `In ${subject}, what command is given under "${c.heading}"?`;
    ask('code-command', q, [c.line], c.heading);
  }
  return out;
}

const insideCell = (node) => {
  for (let p = node.parent; p; p = p.parent) if (p.name === 'td') return true;
  return false;
};

/** A man page's option list as groff renders it to HTML: terms, their descriptions, and section names. */
function manEntries(html) {
  const dom = htmlparser2.parseDocument(html);
  const { DomUtils } = htmlparser2;
  const text = (n) => squash(DomUtils.textContent(n));
  const entries = [];
  let section = '';
  let term = null;
  for (const node of DomUtils.findAll((n) => ['h2', 'p', 'tr'].includes(n.name), dom.children)) {
    if (node.name === 'h2') {
      section = text(node);
      term = null;
      continue;
    }
    if (node.name === 'tr') {
      const cells = DomUtils.getElementsByTagName('td', node.children, false).map(text).filter(Boolean);
      if (cells.length >= 2) entries.push({ section, term: cells[0], desc: cells.slice(1).join(' ') });
      term = null;
      continue;
    }
    if (insideCell(node)) continue;
    const style = node.attribs.style ?? '';
    if (/margin-left:11%/.test(style) && /^[-+\d]/.test(text(node))) term = text(node);
    else if (/margin-left:22%/.test(style) && term) {
      entries.push({ section, term, desc: text(node) });
      term = null;
    } else term = null;
  }
  return { entries, text: text(dom) };
}

/** Questions from a man page: what an option does, its default, which option does something, exit codes. */
function fromManPage(file, html, tool) {
  const { entries, text } = manEntries(html);
  const out = [];
  const ask = (kind, question, facts, extra) =>
    out.push({ id: `${slug(file.replace(/\.\w+$/, ''))}-${kind}-${slug(extra)}`, kind, docs: [file], question, facts });
  const options = entries.filter(
    (e) =>
      /^[-+]{1,2}[\w#]/.test(e.term) &&
      e.desc.length >= 15 &&
      !/^--?(?:help|version|h|V)\b/.test(e.term) &&
      !/^(?:from|N'th|N’th)\b/i.test(e.desc),
  );
  const flag = (term) => term.split(/[\s,=]/)[0];
  for (const e of spread(
    options.filter((o) => lead(o.desc).split(' ').length >= 2),
    PER_KIND + 2,
  ))
    ask('option', `What does the ${flag(e.term)} option of ${tool} do?`, [lead(e.desc)], flag(e.term));
  const defaults = options
    .map((e) => ({ e, m: /\b(?:the )?default (?:is|value is|:)\s*([^.;()]{1,40}?)(?:[.;()]|$)/i.exec(e.desc) }))
    .filter((x) => x.m && worthAsking(x.m[1]) && x.m[1].length <= 25 && !/^to /i.test(x.m[1]))
    // -r, -rx and -ry all default to 150 DPI: one question per default value.
    .filter((x, i, all) => all.findIndex((y) => y.m[1] === x.m[1]) === i);
  for (const { e, m } of spread(defaults, PER_KIND))
    ask(
      'option-default',
      `What is the default for the ${flag(e.term)} option of ${tool}?`,
      [squash(m[1])],
      `${flag(e.term)}-default`,
    );
  const reverse = options.filter((e) => !defaults.some((d) => d.e === e) && lead(e.desc, 9).split(' ').length >= 3);
  for (const e of spread(reverse.slice(1), PER_KIND)) {
    const what = lead(e.desc, 9).replace(/^(\p{Lu})(?=\p{Ll})/u, (c) => c.toLowerCase());
    ask(
      'definition-term',
      `Which option of ${tool} is described as "${what}"?`,
      [flag(e.term)],
      `${flag(e.term)}-which`,
    );
  }
  const codes = entries.filter((e) => /^\d+$/.test(e.term) && /EXIT|RETURN|DIAGNOSTIC/i.test(e.section));
  for (const e of spread(codes, 3))
    ask('exit-code', `What does exit code ${e.term} mean for ${tool}?`, [lead(e.desc)], `exit-${e.term}`);
  return { questions: out, text };
}

/** The text of a PDF as poppler's pdftotext reads it. */
const pdfText = (file) => execFileSync('pdftotext', [path.join(HERE, 'docs', file), '-'], { encoding: 'utf8' });

/** The text a document says, to check each generated fact against. */
function plain(md) {
  return `${md}\n${toString(parse(md))}`;
}

const generated = [];
for (const [file, meta] of Object.entries(splits)) {
  const stem = file.replace(/\.[^.]+$/, '');
  let qs;
  let text;
  if (meta.format === 'man page HTML') {
    const r = fromManPage(file, readFileSync(path.join(HERE, 'docs', file), 'utf8'), meta.subject);
    qs = r.questions;
    text = r.text;
  } else {
    const mdFile = file.endsWith('.md') ? path.join(HERE, 'docs', file) : path.join(HERE, 'sources', `${stem}.md`);
    if (!existsSync(mdFile)) continue; // plain text and HTML as shipped: hand-written questions only
    const md = readFileSync(mdFile, 'utf8');
    qs = fromMarkdownDoc(file, md, meta.subject, meta.lang);
    // A PDF holds only what Chromium printed (a closed <details> is not): its facts must be in it.
    text = file.endsWith('.pdf') ? pdfText(file) : plain(md);
  }
  const hay = squash(text).toLowerCase();
  for (const q of qs) {
    if (generated.some((g) => g.question === q.question)) continue;
    const facts = q.facts.filter((f) => f && hay.includes(squash(f).toLowerCase()));
    if (facts.length !== q.facts.length || !facts.length) continue;
    generated.push({ ...q, origin: 'generated' });
  }
}

// A hand-written question's facts must be in its documents too (one of the alternatives, at least).
const docText = (file) => {
  if (file.endsWith('.pdf')) return pdfText(file);
  const stem = file.replace(/\.[^.]+$/, '');
  const src = path.join(HERE, 'sources', `${stem}.md`);
  if (existsSync(src)) return plain(readFileSync(src, 'utf8'));
  const raw = readFileSync(path.join(HERE, 'docs', file), 'utf8');
  if (file.endsWith('.html')) return htmlparser2.DomUtils.textContent(htmlparser2.parseDocument(raw));
  return file.endsWith('.md') ? plain(raw) : raw;
};
let unfounded = 0;
for (const q of hand) {
  const hay = squash(q.docs.map(docText).join('\n')).toLowerCase();
  for (const fact of q.facts) {
    const alts = Array.isArray(fact) ? fact : [fact];
    if (!alts.some((a) => hay.includes(squash(a).toLowerCase()))) {
      console.error(`${q.id}: ${JSON.stringify(fact)} is not in ${q.docs.join(', ')}`);
      unfounded++;
    }
  }
}
if (unfounded) process.exitCode = 1;

// Unique ids; a generated question never repeats a hand-written one's id.
const seen = new Set(hand.map((q) => q.id));
const all = [...hand.map((q) => ({ ...q, origin: q.origin ?? 'hand' }))];
for (const q of generated) {
  let id = q.id;
  for (let n = 2; seen.has(id); n++) id = `${q.id}-${n}`;
  seen.add(id);
  all.push({ ...q, id });
}

const splitOf = (q) => {
  const s = new Set(q.docs.map((d) => splits[d]?.split));
  if (s.has(undefined)) throw new Error(`${q.id}: a document not in splits.json: ${q.docs.join(', ')}`);
  if (q.docs.length === 0) {
    if (!q.split) throw new Error(`${q.id}: a question over no document needs its own "split"`);
    return q.split;
  }
  if (s.size !== 1) throw new Error(`${q.id}: documents from both splits: ${q.docs.join(', ')}`);
  return [...s][0];
};
for (const split of ['dev', 'heldout']) {
  const qs = all.filter((q) => splitOf(q) === split).map(({ split: _s, ...q }) => q);
  const lines = qs.map((q) => `  ${JSON.stringify(q)}`);
  writeFileSync(path.join(HERE, `questions.${split}.json`), `[\n${lines.join(',\n')}\n]\n`);
  const kinds = {};
  for (const q of qs) kinds[q.kind] = (kinds[q.kind] ?? 0) + 1;
  console.log(
    `${split}: ${qs.length} questions (${qs.filter((q) => q.origin === 'generated').length} generated)`,
    kinds,
  );
}
