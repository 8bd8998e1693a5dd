import type { Nodes, Paragraph, PhrasingContent, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown, gfmToMarkdown } from 'mdast-util-gfm';
import { toMarkdown } from 'mdast-util-to-markdown';
import { gfm } from 'micromark-extension-gfm';

/**
 * Markdown parsed once into mdast with GFM (tables, strikethrough, autolinks, task lists, footnotes).
 * Soft line breaks inside prose become single spaces (code keeps its own), so a sentence wrapped over
 * lines reads and segments as one sentence.
 */
export function parseMarkdown(markdown: string): Root {
  const tree = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  joinSoftBreaks(tree);
  return tree;
}

function joinSoftBreaks(node: Nodes): void {
  if (node.type === 'text') {
    node.value = node.value.replace(/[ \t]*\r?\n[ \t]*/g, ' ');
    return;
  }
  if ('children' in node) for (const child of node.children) joinSoftBreaks(child);
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
  const paragraph: Paragraph = { type: 'paragraph', children: [...nodes] };
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
