import type { BlockContent, DefinitionContent, List, Paragraph, PhrasingContent, RootContent, Table } from 'mdast';
import {
  headingText,
  inlineMarkdown,
  inlineText,
  nodeMarkdown,
  parseMarkdown,
  spacedHeadings,
} from './markdown-tree.js';
import { markdownPieces } from './markdown-pieces.js';

export { inlineMarkdown, inlineText, nodeMarkdown, parseMarkdown } from './markdown-tree.js';

/** One table cell: what a reader sees, and its inline Markdown (code spans and links kept). */
export interface Cell {
  text: string;
  markdown: string;
}

interface BlockBase {
  /** The headings above this block, outermost first (the block's section). */
  section: string[];
  /** A reader's plain text: markup dropped as markup, never as characters. */
  text: string;
  /** The block as Markdown (inline code, links and escapes intact). */
  markdown: string;
  /** The inline nodes of prose blocks, for sentence splitting that keeps code spans whole. */
  inline?: PhrasingContent[];
}

export type Block =
  | (BlockBase & { kind: 'heading'; depth: number })
  | (BlockBase & { kind: 'paragraph' })
  | (BlockBase & { kind: 'listItem'; depth: number; ordered: boolean; checked: boolean | null })
  | (BlockBase & { kind: 'code'; lang: string | null; value: string })
  | (BlockBase & { kind: 'table'; header: Cell[]; rows: Cell[][] })
  | (BlockBase & { kind: 'blockquote'; children: Block[] })
  | (BlockBase & { kind: 'html'; value: string })
  | (BlockBase & { kind: 'image'; alt: string; url: string })
  | (BlockBase & { kind: 'badge' });

export type BlockKind = Block['kind'];

/** Markdown walked into the blocks a reader sees, in document order. */
export function markdownBlocks(markdown: string): Block[] {
  const walker = new BlockWalker();
  // Piece by piece (markdown-pieces.ts), the walker keeping the section across pieces.
  // Headings written without their space are found over the whole document (markdown-tree.ts).
  for (const piece of markdownPieces(spacedHeadings(markdown))) walker.walk(parseMarkdown(piece).children, 0);
  return walker.blocks;
}

/** The plain text of a Markdown snippet (a title, a label, a line), markup dropped, characters kept. */
export function markdownToPlainText(markdown: string): string {
  return markdownBlocks(markdown)
    .map((b) => (b.kind === 'code' ? b.value : b.text))
    .filter(Boolean)
    .join('\n')
    .trim();
}

/**
 * A table of contents entry: a list item or paragraph that is nothing but links into the page
 * itself (`[Options](#options)`). It is navigation, not something the document says.
 */
export function isNavigation(block: Block): boolean {
  if ((block.kind !== 'listItem' && block.kind !== 'paragraph') || !block.inline) return false;
  const meaningful = block.inline.filter((n) => !(n.type === 'text' && !n.value.trim()) && n.type !== 'break');
  // Links written as HTML in the Markdown (`<a href="#install">Installation</a>`) count too.
  let inAnchor = false;
  let links = 0;
  for (const n of meaningful) {
    if (n.type === 'link' && n.url.startsWith('#') && !inAnchor) links++;
    else if (n.type === 'html' && IN_PAGE_ANCHOR.test(n.value) && !inAnchor) [inAnchor, links] = [true, links + 1];
    else if (n.type === 'html' && /^<\/a\s*>$/i.test(n.value) && inAnchor) inAnchor = false;
    else if (!inAnchor) return false;
  }
  return links > 0 && !inAnchor;
}

const IN_PAGE_ANCHOR = /^<a\s[^>]*\bhref\s*=\s*["']#[^>]*>$/i;

/** A table of contents needs this many entries naming a heading before its items are read as one. */
const MIN_CONTENTS_ENTRIES = 3;

/**
 * A document's blocks without its navigation: entries linking into the page, and a table of
 * contents whose links a PDF or a DOCX lost, a list whose items are the document's headings word
 * for word ("How to connect via a proxy?" over the section of that name). `headings` are those of
 * the whole document, when the blocks are one page of it.
 */
export function withoutNavigation(blocks: Block[], headings = headingTexts(blocks)): Block[] {
  const contents = new Set<Block>();
  let run: Block[] = [];
  for (const b of [...blocks, undefined]) {
    if (b?.kind === 'listItem') {
      run.push(b);
      continue;
    }
    const named = run.filter((x) => headings.has(x.text.trim()));
    if (named.length >= MIN_CONTENTS_ENTRIES) named.forEach((x) => contents.add(x));
    run = [];
  }
  return blocks.filter((b) => !isNavigation(b) && !contents.has(b));
}

/** The texts of the headings among blocks. */
export const headingTexts = (blocks: Block[]) =>
  new Set(blocks.flatMap((b) => (b.kind === 'heading' ? [b.text.trim()] : [])));

type FlowNode = RootContent | BlockContent | DefinitionContent;

class BlockWalker {
  readonly blocks: Block[] = [];
  private readonly headings: Array<{ depth: number; text: string; details?: boolean }> = [];

  private section(): string[] {
    return this.headings.map((h) => h.text);
  }

  walk(nodes: readonly FlowNode[], listDepth: number): void {
    for (const node of nodes) this.visit(node, listDepth);
  }

  private visit(node: FlowNode, listDepth: number): void {
    switch (node.type) {
      case 'heading': {
        const text = headingText(node.children);
        while (this.headings.length && this.headings[this.headings.length - 1].depth >= node.depth) this.headings.pop();
        this.blocks.push({
          kind: 'heading',
          depth: node.depth,
          section: this.section(),
          text,
          markdown: inlineMarkdown(node.children),
          inline: node.children,
        });
        if (text) this.headings.push({ depth: node.depth, text });
        return;
      }
      case 'paragraph':
        this.blocks.push(this.paragraph(node.children));
        return;
      case 'list':
        this.list(node, listDepth + 1);
        return;
      case 'code':
        this.blocks.push({
          kind: 'code',
          lang: node.lang ?? null,
          value: node.value,
          section: this.section(),
          text: node.value,
          markdown: nodeMarkdown(node),
        });
        return;
      case 'table':
        this.blocks.push(this.table(node));
        return;
      case 'blockquote': {
        const inner = new BlockWalker();
        inner.walk(node.children, 0);
        const text = inner.blocks
          .map((b) => b.text)
          .filter(Boolean)
          .join('\n');
        this.blocks.push({
          kind: 'blockquote',
          children: inner.blocks.map((b) => ({ ...b, section: [...this.section(), ...b.section] })),
          section: this.section(),
          text,
          markdown: nodeMarkdown(node),
        });
        return;
      }
      case 'html':
        this.blocks.push({ kind: 'html', value: node.value, section: this.section(), text: '', markdown: node.value });
        this.details(node.value);
        return;
      case 'footnoteDefinition':
        this.walk(node.children, listDepth);
        return;
      default:
        // definitions, thematic breaks, yaml: nothing a reader reads as content.
        return;
    }
  }

  /**
   * A collapsed section (`<details><summary>Should I commit my .env file?</summary> … </details>`,
   * a README's FAQ) is a section under its summary, as under a heading, until it closes.
   */
  private details(html: string): void {
    if (/<\/details\s*>/i.test(html.split(/<details\b/i)[0])) {
      const at = this.headings.findLastIndex((h) => h.details);
      if (at >= 0) this.headings.splice(at);
    }
    const summary = /<details\b[^>]*>\s*<summary\b[^>]*>([\s\S]*?)<\/summary\s*>/i.exec(html);
    const first = summary && parseMarkdown(summary[1].trim()).children[0];
    if (!first || first.type !== 'paragraph') return;
    const text = headingText(first.children);
    if (!text) return;
    const depth = Math.min(6, (this.headings.at(-1)?.depth ?? 0) + 1);
    this.blocks.push({
      kind: 'heading',
      depth,
      section: this.section(),
      text,
      markdown: inlineMarkdown(first.children),
      inline: first.children,
    });
    this.headings.push({ depth, text, details: true });
  }

  private paragraph(children: PhrasingContent[]): Block {
    const section = this.section();
    const markdown = inlineMarkdown(children);
    const pictures = picturesOnly(children);
    if (pictures) {
      const first = pictures[0];
      if (pictures.length === 1 && !first.linked) {
        return { kind: 'image', alt: first.alt, url: first.url, section, text: '', markdown };
      }
      return { kind: 'badge', section, text: '', markdown };
    }
    return { kind: 'paragraph', section, text: inlineText(children).trim(), markdown, inline: children };
  }

  private list(list: List, depth: number): void {
    list.children.forEach((item) => {
      const lead: Paragraph[] = [];
      const rest: FlowNode[] = [];
      for (const child of item.children) {
        if (child.type === 'paragraph' && rest.length === 0) lead.push(child);
        else rest.push(child);
      }
      // Of several paragraphs opening an item, the last right before a code block leads into that
      // block (a disclosure's "Click to see the examples"): it is not what the item says.
      if (lead.length > 1 && rest[0]?.type === 'code') rest.unshift(lead.pop()!);
      const own: PhrasingContent[] = lead.flatMap((p, i) =>
        i === 0 ? p.children : [{ type: 'break' }, ...p.children],
      );
      // A task's box is part of what it says: "[ ] KOI8-U for Ukrainian" is not done yet.
      const box = item.checked === true ? '[x] ' : item.checked === false ? '[ ] ' : '';
      this.blocks.push({
        kind: 'listItem',
        depth,
        ordered: list.ordered ?? false,
        checked: item.checked ?? null,
        section: this.section(),
        text: `${box}${inlineText(own).trim()}`,
        markdown: `${box}${inlineMarkdown(own)}`,
        inline: own,
      });
      this.walk(rest, depth);
    });
  }

  private table(node: Table): Block {
    const cellsOf = (row: Table['children'][number]): Cell[] =>
      row.children.map((c) => ({
        text: inlineText(c.children).trim(),
        // A cell's pipe is escaped, as in the table it came from: a row written again keeps its cells.
        markdown: inlineMarkdown(c.children).replace(/(?<!\\)\|/g, '\\|'),
      }));
    const [head, ...body] = node.children;
    const header = head ? cellsOf(head) : [];
    const rows = body.map(cellsOf);
    const text = [header, ...rows].map((r) => r.map((c) => c.text).join(' | ')).join('\n');
    return { kind: 'table', header, rows, section: this.section(), text, markdown: nodeMarkdown(node) };
  }
}

interface Picture {
  alt: string;
  url: string;
  linked: boolean;
}

/** The images of a paragraph made of nothing but images (bare or linked) and whitespace, else null. */
function picturesOnly(children: readonly PhrasingContent[]): Picture[] | null {
  const found: Picture[] = [];
  const collect = (nodes: readonly PhrasingContent[], linked: boolean): boolean => {
    for (const n of nodes) {
      if (n.type === 'image') found.push({ alt: n.alt ?? '', url: n.url, linked });
      else if (n.type === 'imageReference') found.push({ alt: n.alt ?? '', url: '', linked });
      else if (n.type === 'link' || n.type === 'linkReference') {
        if (!collect(n.children, true)) return false;
      } else if (n.type === 'text' || n.type === 'break') {
        if (n.type === 'text' && n.value.trim()) return false;
      } else if (n.type !== 'html') return false;
    }
    return true;
  };
  return collect(children, false) && found.length > 0 ? found : null;
}
