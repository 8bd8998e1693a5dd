import type { Definition, Nodes, Paragraph, PhrasingContent, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown, gfmToMarkdown } from 'mdast-util-gfm';
import { toMarkdown } from 'mdast-util-to-markdown';
import { compact } from 'mdast-util-compact';
import { gfm } from 'micromark-extension-gfm';

/**
 * Markdown parsed once into mdast with GFM (tables, strikethrough, autolinks, task lists, footnotes).
 * Soft line breaks inside prose become single spaces (code keeps its own), so a sentence wrapped over
 * lines reads and segments as one sentence.
 */
export function parseMarkdown(markdown: string): Root {
  // Open ones are decided over a whole document (markdownBlocks): a piece of it may hold a `#tag`
  // line and none of the document's spaced headings.
  const tree = fromMarkdown(spacedHeadings(markdown, { open: false }), {
    extensions: [gfm()],
    mdastExtensions: [gfmFromMarkdown()],
  });
  joinSoftBreaks(tree);
  htmlBreaks(tree);
  withoutAlertMarks(tree);
  resolveReferences(tree, definitionsOf(tree));
  return tree;
}

/**
 * Headings written without the space CommonMark wants, as older Markdown read them and READMEs of
 * that time still write them: closed by as many marks as open them (`##Install##`), or open
 * (`##API`) in a document that writes more of its headings so than with the space. A line opening
 * `#1` or `#!` is no heading.
 */
export function spacedHeadings(markdown: string, { open = true } = {}): string {
  if (!/^#{1,6}[^#\s]/m.test(markdown)) return markdown;
  const lines = markdown.split('\n');
  const fenced = fencedLines(lines);
  const opens = (l: string, i: number) => !fenced[i] && /^#{1,6}[\p{L}`*_]/u.test(l);
  const unspaced = lines.filter(opens).length;
  const spaced = lines.filter((l, i) => !fenced[i] && /^#{1,6}[ \t]+\S/.test(l)).length;
  return lines
    .map((line, i) => {
      if (fenced[i]) return line;
      const closed = line.replace(/^(#{1,6})([^#\s](?:.*[^#\s\\])?)\1([ \t]*\r?)$/, '$1 $2 $1$3');
      if (closed !== line || !open || unspaced < 2 || unspaced <= spaced || !opens(line, i)) return closed;
      return line.replace(/^(#{1,6})/, '$1 ');
    })
    .join('\n');
}

/** Which lines are inside a fenced code block (its fences included). */
function fencedLines(lines: string[]): boolean[] {
  let fence: string | null = null;
  return lines.map((line) => {
    const mark = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    const opens = mark !== undefined && (fence === null || (mark[0] === fence[0] && mark.length >= fence.length));
    if (!opens) return fence !== null;
    fence = fence === null ? mark : null;
    return true;
  });
}

/**
 * GitHub's alert mark opening a quote (`> [!NOTE]`) is how the note is drawn, not what it says:
 * quoted as text it would read "[!NOTE] This callback is not called…".
 */
function withoutAlertMarks(node: Nodes): void {
  if (node.type === 'paragraph') {
    const first = node.children[0];
    if (first?.type === 'text') first.value = first.value.replace(ALERT_MARK, '');
    return;
  }
  if ('children' in node) {
    node.children.forEach(withoutAlertMarks);
    node.children = node.children.filter((c) => c.type !== 'paragraph' || c.children.some(hasContent));
  }
}

const ALERT_MARK = /^\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][ \t]*/i;
const hasContent = (n: PhrasingContent) => n.type !== 'text' || n.value.trim() !== '';

/**
 * Reference links and images (`[RFC 6266][rfc-6266]`) as the inline links they stand for: a block
 * quoted apart from its document's definitions (a chunk, an answer) would read them back as
 * bracketed text. A reference without a definition stays as written.
 */
function definitionsOf(tree: Root): Map<string, Definition> {
  const found = new Map<string, Definition>();
  const walk = (node: Nodes) => {
    if (node.type === 'definition' && !found.has(node.identifier)) found.set(node.identifier, node);
    if ('children' in node) node.children.forEach(walk);
  };
  walk(tree);
  return found;
}

function resolveReferences(node: Nodes, definitions: Map<string, Definition>): void {
  if (!('children' in node) || definitions.size === 0) return;
  node.children = node.children.map((child) => {
    const def =
      child.type === 'linkReference' || child.type === 'imageReference' ? definitions.get(child.identifier) : undefined;
    if (child.type === 'linkReference' && def)
      return { type: 'link', url: def.url, title: def.title, children: child.children };
    if (child.type === 'imageReference' && def)
      return { type: 'image', url: def.url, title: def.title, alt: child.alt };
    return child;
  });
  for (const child of node.children) resolveReferences(child, definitions);
}

function joinSoftBreaks(node: Nodes): void {
  if (node.type === 'text') {
    node.value = node.value.replace(/[ \t]*\r?\n[ \t]*/g, ' ');
    return;
  }
  if ('children' in node) for (const child of node.children) joinSoftBreaks(child);
}

/**
 * A paragraph's `<br>` written as HTML ends its line as a hard break does: "**Size (gzip):** 304
 * bytes<br>**Availability:** …" is two lines. Not in a table cell, where a line break would end the row.
 */
function htmlBreaks(node: Nodes): void {
  if (node.type === 'paragraph') {
    node.children = node.children.map((c) =>
      c.type === 'html' && /^<br\s*\/?>$/i.test(c.value) ? { type: 'break', position: c.position } : c,
    );
    // The spaces around it are the line ends' (a soft break's, joined): the lines do not keep them.
    node.children.forEach((c, i, all) => {
      if (c.type !== 'text') return;
      if (all[i - 1]?.type === 'break') c.value = c.value.trimStart();
      if (all[i + 1]?.type === 'break') c.value = c.value.trimEnd();
    });
    return;
  }
  if ('children' in node && node.type !== 'table') for (const child of node.children) htmlBreaks(child);
}

/** Markdown for any node, escaped the way mdast-util-to-markdown escapes it (so `*` in text stays a character). */
export function nodeMarkdown(node: Nodes): string {
  return toMarkdown(node, {
    extensions: [gfmToMarkdown()],
    bullet: '-',
    emphasis: '_',
    fences: true,
    rule: '-',
  }).trim();
}

/** Inline Markdown for a run of phrasing nodes: code spans as `code`, links as links, emphasis kept. */
export function inlineMarkdown(nodes: readonly PhrasingContent[]): string {
  if (nodes.length === 0) return '';
  // Adjacent text nodes are merged first: escaping looks at a text node's own neighbours, so
  // `a` + `_b` before emphasis could come out as `&#x61;_b`, which reads back as emphasis.
  const paragraph: Paragraph = structuredClone({ type: 'paragraph', children: [...nodes] });
  compact(paragraph);
  return nodeMarkdown(paragraph);
}

/**
 * A reader's text of phrasing nodes: markup dropped, every character of content kept (text values and
 * code spans verbatim, image alt text, a hard break as a newline).
 */
export function inlineText(nodes: readonly PhrasingContent[]): string {
  let out = '';
  for (const node of nodes) out += phrasingText(node);
  return out;
}

/**
 * A heading's text without its images: `# fecha [![Build Status](…)](…)` is "fecha", not "fecha
 * Build Status". A heading that is only an image (a logo) keeps the image's alt text.
 */
export function headingText(nodes: readonly PhrasingContent[]): string {
  const withoutImages = (ns: readonly PhrasingContent[]): PhrasingContent[] =>
    ns.flatMap((n): PhrasingContent[] => {
      if (n.type === 'image' || n.type === 'imageReference') return [];
      if ('children' in n) return [{ ...n, children: withoutImages(n.children) }];
      return [n];
    });
  const text = inlineText(withoutImages(nodes)).replace(/\s+/g, ' ').trim();
  return text || inlineText(nodes).trim();
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/**
 * A Markdown document's title: its one top-level heading (ATX `# Title` or a setext title
 * underlined with `===`) outside code, as text. Only those headings are parsed, not the document.
 */
export function markdownTitle(markdown: string): string | null {
  const lines = markdown.split(/\r?\n/);
  let fence: string | undefined;
  let title: string | null = null;
  let found = 0;
  // Whether a lower heading comes after the first top-level one, before any other.
  let sections = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const open = FENCE.exec(line);
    if (fence) {
      if (open && open[1][0] === fence[0] && open[1].length >= fence.length) fence = undefined;
      continue;
    }
    if (open) {
      fence = open[1];
      continue;
    }
    const plain = line.trim() && !/^\s{4}/.test(line);
    const setext = plain && /^\s{0,3}=+\s*$/.test(lines[i + 1] ?? '');
    if (found === 1 && (/^\s{0,3}#{2,6}\s/.test(line) || (plain && /^\s{0,3}-{3,}\s*$/.test(lines[i + 1] ?? ''))))
      sections = true;
    if (!/^\s{0,3}#\s/.test(line) && !setext) continue;
    const heading = parseMarkdown(setext ? `${line}\n${lines[i + 1]}` : line).children[0];
    if (heading?.type !== 'heading' || heading.depth !== 1) continue;
    found++;
    title ??= headingText(heading.children) || null;
    // A document whose top-level headings are its sections (Description, Install, Examples), the
    // first with none under it, has no title.
    if (found > 1) return sections ? title : null;
  }
  return title;
}

/** A reader's text of one phrasing node (see inlineText). */
export function phrasingText(node: PhrasingContent): string {
  switch (node.type) {
    case 'text':
    case 'inlineCode':
      return node.value;
    case 'break':
      return '\n';
    case 'image':
      return node.alt ?? '';
    case 'html':
    case 'footnoteReference':
    case 'imageReference':
      return node.type === 'imageReference' ? (node.alt ?? '') : '';
    default:
      return 'children' in node ? inlineText(node.children) : '';
  }
}
