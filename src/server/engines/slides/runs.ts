import type { PhrasingContent, RootContent } from 'mdast';
import { parseMarkdown } from '../../text/markdown.js';

/**
 * A point's inline Markdown as the runs a slide shows: strong text as a bold run, a code span as a
 * monospace run, a link as its words, never its address; images, badges and raw HTML are left out.
 * Marks are read as markup by the Markdown parser, so a `**` or `[` a point carries never reaches
 * the slide as characters.
 */
export interface Run {
  text: string;
  bold?: boolean;
  code?: boolean;
}

function walk(nodes: readonly (PhrasingContent | RootContent)[], bold: boolean, out: Run[]): void {
  for (const n of nodes) {
    switch (n.type) {
      case 'text':
        out.push({ text: n.value, ...(bold ? { bold } : {}) });
        break;
      case 'inlineCode':
        out.push({ text: n.value, code: true, ...(bold ? { bold } : {}) });
        break;
      case 'strong':
        walk(n.children, true, out);
        break;
      case 'break':
        out.push({ text: ' ' });
        break;
      case 'image':
      case 'imageReference':
      case 'html':
        break;
      default:
        if ('children' in n) walk(n.children, bold, out);
    }
  }
}

/** The runs of one point (inline Markdown, or plain text: plain text has no marks to read). */
export function pointRuns(markdown: string): Run[] {
  const out: Run[] = [];
  walk(parseMarkdown(markdown.replace(/\s+/g, ' ').trim()).children, false, out);
  // Adjacent runs of one style are one run; whitespace is single spaces, none at the ends.
  const merged: Run[] = [];
  for (const r of out) {
    const text = r.text.replace(/\s+/g, ' ');
    const last = merged[merged.length - 1];
    if (last && Boolean(last.bold) === Boolean(r.bold) && Boolean(last.code) === Boolean(r.code)) last.text += text;
    else if (text) merged.push({ ...r, text });
  }
  if (merged.length) {
    merged[0].text = merged[0].text.trimStart();
    merged[merged.length - 1].text = merged[merged.length - 1].text.trimEnd();
  }
  return merged.filter((r) => r.text);
}

/** What the runs read as: the text measured and indexed. */
export const runsText = (runs: Run[]) => runs.map((r) => r.text).join('');
