import type { Nodes, PhrasingContent } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { parseMarkdown } from '../../text/markdown.js';

/** A page text's words alone, for an attribute (a meta description): a link is its text. */
export const inlinePlain = (markdown: string): string => toString(parseMarkdown(markdown)).replace(/\s+/g, ' ').trim();

/**
 * A page text (inline Markdown: the sources' sentences and the writer's answers keep code spans,
 * emphasis and links as Markdown) as HTML: code spans as <code>, emphasis as <strong>/<em>, links as
 * their text, block marks (a heading's #, a list's -) dropped as markup. No Markdown mark reaches
 * the page and no character of content is lost. `esc` escapes a run of text for HTML.
 */
export function inlineHtml(markdown: string, esc: (text: string) => string): string {
  const out: string[] = [];
  const flow = (node: Nodes) => {
    switch (node.type) {
      case 'code':
        out.push(`<code>${esc(node.value)}</code>`);
        return;
      case 'html':
        out.push(esc(node.value));
        return;
      case 'paragraph':
      case 'heading':
      case 'tableCell':
        out.push(node.children.map(phrasing).join(''));
        return;
      default:
        if ('children' in node) for (const child of node.children) flow(child);
    }
  };
  const phrasing = (node: PhrasingContent): string => {
    switch (node.type) {
      case 'text':
        return esc(node.value);
      case 'inlineCode':
        return `<code>${esc(node.value)}</code>`;
      case 'strong':
        return `<strong>${node.children.map(phrasing).join('')}</strong>`;
      case 'emphasis':
        return `<em>${node.children.map(phrasing).join('')}</em>`;
      case 'delete':
        return `<del>${node.children.map(phrasing).join('')}</del>`;
      case 'link':
      case 'linkReference':
        return node.children.map(phrasing).join('');
      case 'image':
      case 'imageReference':
        return esc(node.alt ?? '');
      case 'html':
        return esc(node.value);
      case 'break':
        return ' ';
      default:
        return '';
    }
  };
  flow(parseMarkdown(markdown));
  return out.filter(Boolean).join(' ');
}
