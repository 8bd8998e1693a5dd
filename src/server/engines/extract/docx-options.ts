/**
 * mammoth's options for DOCX: code and links as the document's author made them. Word and
 * LibreOffice mark code with paragraph styles ("HTML Preformatted", "Preformatted Text", "Code")
 * and character styles ("HTML Code", "Source Text"), which mammoth's default style map does not
 * know; a link LibreOffice writes as a field code (`HYPERLINK "docs/web.md" \l "fastify"`) reaches
 * mammoth's greedy parse as one odd address, put together again here.
 */

const CODE_PARAGRAPHS = ['HTML Preformatted', 'Preformatted Text', 'Code', 'Source Code', 'Plain Text', 'Macro Text'];
const CODE_RUNS = ['HTML Code', 'Source Text', 'Code Char', 'HTML Typewriter', 'Verbatim Char', 'Inline Code'];

export const DOCX_STYLE_MAP = [
  ...CODE_PARAGRAPHS.map((name) => `p[style-name='${name}'] => pre:separator('\\n')`),
  ...CODE_RUNS.map((name) => `r[style-name='${name}'] => code`),
];

interface DocxElement {
  type?: string;
  href?: string;
  anchor?: string;
  children?: DocxElement[];
}

/** A field-code link's address and bookmark as one href: `docs/web.md#fastify`, or `#fastify` for a bookmark in the document. */
export function repairHref(href: string): string {
  const split = /^(.*?)"\s*\\l\s*"(.*)$/.exec(href);
  if (!split) return href;
  const [, file, anchor] = split;
  return `${file}#${anchor.replace(/"$/, '')}`;
}

/** mammoth's transformDocument: every hyperlink's address repaired, in place. */
export function transformDocx<T extends DocxElement>(element: T): T {
  if (element.type === 'hyperlink' && typeof element.href === 'string') element.href = repairHref(element.href);
  for (const child of element.children ?? []) transformDocx(child);
  return element;
}
