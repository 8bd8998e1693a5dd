import type { MindmapLayout } from '../../../contract/mindmap.js';
import { markdownToPlainText } from '../../text/markdown.js';
/**
 * A mindmap's tree: what the model writes (Markdown), what is stored, and what every layout draws.
 * The Markdown is the exchange format because any model, local or upstream, writes an outline
 * naturally; the parser is forgiving (headings, bullets, numbered items, any indentation).
 */
export interface MindNode {
  text: string;
  children: MindNode[];
}

/** The layouts are the contract's (spec 4.5). */
export type Layout = MindmapLayout;

/** Bounds that keep a drawing readable and its work bounded, whatever a model writes. */
export const TREE_LIMITS = { maxDepth: 6, maxNodes: 400, maxLabel: 160 };

/**
 * A label as a reader sees it: inline Markdown (emphasis, code spans, links) dropped as markup by
 * the Markdown parser, never as characters (`DEBUG=*` keeps its star, snake_case its underscores);
 * citation markers left out. A line that would parse as a block ("1. ", "# ") is read as text.
 */
function plain(text: string): string {
  const inline = text.replace(/\[\d+\]/g, '').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
  if (!/[*_`[\]\\<&]/.test(inline)) return inline.replace(/\s+/g, ' ').trim();
  // A leading block mark ("1.", "#", "-", ">") is escaped so the line stays one paragraph.
  const asParagraph = inline
    .trim()
    .replace(/^(\d+)([.)])(\s)/, '$1\\$2$3')
    .replace(/^([#>+-])/, '\\$1');
  return markdownToPlainText(asParagraph).replace(/\s+/g, ' ').trim();
}

/** Cuts a label at a word boundary, with an ellipsis, so no node holds a paragraph. */
export function clipLabel(text: string, max = TREE_LIMITS.maxLabel): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const cut = chars.slice(0, max - 1).join('');
  const space = cut.lastIndexOf(' ');
  return (space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '') + '…';
}

interface Line {
  level: number;
  text: string;
}

/**
 * Markdown outline to tree. Headings give levels 1-6; a bullet or numbered item sits one level
 * under the last heading, deeper by its indentation. The first level-1 heading is the root; when the
 * text has several top-level items or none, `fallbackRoot` becomes the root above them.
 */
export function parseOutline(markdown: string, fallbackRoot: string): MindNode {
  const lines: Line[] = [];
  let heading = 0;
  const indents: number[] = [];
  for (const raw of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    // Models often wrap the outline in a code fence: the fence lines go, their content stays.
    if (/^\s*(```|~~~)/.test(raw) || raw.trim() === '') continue;
    const h = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(raw);
    if (h) {
      heading = h[1].length;
      indents.length = 0;
      lines.push({ level: heading, text: plain(h[2]) });
      continue;
    }
    const b = /^(\s*)(?:[-*+•]|\d+[.)])\s+(.*)$/.exec(raw.replace(/\t/g, '  '));
    if (b) {
      const indent = b[1].length;
      // Levels by distinct indentation, so 2-, 3- and 4-space outlines all nest right.
      while (indents.length > 0 && indents[indents.length - 1] > indent) indents.pop();
      if (indents.length === 0 || indents[indents.length - 1] < indent) indents.push(indent);
      lines.push({ level: heading + indents.length, text: plain(b[2]) });
      continue;
    }
    // A plain line: the root when nothing came yet, else a point at the current depth.
    const text = plain(raw);
    if (/^[-=]{3,}$/.test(text)) continue;
    lines.push({ level: lines.length === 0 ? 1 : heading + 1, text });
  }
  const items = lines.filter((l) => l.text !== '');
  const topLevel = items.length > 0 ? Math.min(...items.map((l) => l.level)) : 1;
  const tops = items.filter((l) => l.level === topLevel).length;
  const root: MindNode = { text: '', children: [] };
  let start = 0;
  if (tops === 1 && items[0]?.level === topLevel) {
    root.text = items[0].text;
    start = 1;
  } else {
    root.text = plain(fallbackRoot);
  }
  const stack: Array<{ level: number; node: MindNode }> = [
    { level: start === 1 ? topLevel : topLevel - 1, node: root },
  ];
  for (const l of items.slice(start)) {
    while (stack.length > 1 && stack[stack.length - 1].level >= l.level) stack.pop();
    const node: MindNode = { text: l.text, children: [] };
    stack[stack.length - 1].node.children.push(node);
    stack.push({ level: l.level, node });
  }
  return normalizeTree(root);
}

/** Clips labels, drops empty ones, and bounds depth and size (breadth first, so every branch keeps its head). */
export function normalizeTree(tree: MindNode): MindNode {
  const copy = (n: MindNode, depth: number): MindNode => ({
    text: clipLabel(plain(n.text)) || '…',
    children:
      depth >= TREE_LIMITS.maxDepth - 1
        ? []
        : n.children.filter((c) => plain(c.text) !== '').map((c) => copy(c, depth + 1)),
  });
  const root = dedupe(copy(tree, 0));
  let kept = 1;
  const queue: MindNode[] = [root];
  for (let i = 0; i < queue.length; i++) {
    const n = queue[i];
    const room = Math.max(0, TREE_LIMITS.maxNodes - kept);
    if (n.children.length > room) n.children = n.children.slice(0, room);
    kept += n.children.length;
    queue.push(...n.children);
  }
  return root;
}

/**
 * No label twice in a map (whatever the model wrote): a node whose label an earlier node has
 * (compared without case and punctuation) goes, and its children take its place under its parent.
 */
function dedupe(root: MindNode): MindNode {
  const key = (t: string) =>
    t
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
  const seen = new Set([key(root.text)]);
  const walk = (n: MindNode) => {
    const pending = [...n.children];
    n.children = [];
    while (pending.length > 0) {
      const c = pending.shift()!;
      if (seen.has(key(c.text))) pending.unshift(...c.children);
      else {
        seen.add(key(c.text));
        n.children.push(c);
      }
    }
    n.children.forEach(walk);
  };
  walk(root);
  return root;
}

/** The tree as a Markdown outline: the root a heading, every other node a nested bullet. */
export function toMarkdown(tree: MindNode): string {
  const out = [`# ${tree.text}`, ''];
  const walk = (n: MindNode, depth: number) => {
    for (const c of n.children) {
      out.push(`${'  '.repeat(depth)}- ${c.text}`);
      walk(c, depth + 1);
    }
  };
  walk(tree, 0);
  return out.join('\n') + '\n';
}

export function countNodes(tree: MindNode): number {
  return 1 + tree.children.reduce((s, c) => s + countNodes(c), 0);
}
