import { parseHTML } from 'linkedom';
import { looksLikeCommand } from '../../text/statements.js';

/**
 * groff's HTML (`man -Thtml`) sets a definition list's terms apart by layout alone: a term at one
 * indent (`[:xdigit:]`, an exit code) and its description further in, or a term and its
 * description in the cells of one layout-table row. Readability drops the styles that said so, and
 * a term not in bold read as a sentence of its own. Such a term is made bold, as groff bolds an
 * option: the unit layer keeps it with its description.
 */
const MAX_TERM = 40;
/**
 * A setting with its placeholders in capitals, maybe marked non-POSIX by groff's "* " (stty's
 * `intr CHAR`, `* rows N`, `* [-]drain`).
 */
const SETTING = /^(?:\*\s+)?\S+(?:\s+\p{Lu}[\p{Lu}\d_]*)*$/u;
const MARGIN = /margin-left:\s*([\d.]+)(%|px|em|rem|pt)/i;

function marginOf(el: Element | null): { size: number; unit: string } | undefined {
  if (el?.tagName !== 'P') return undefined;
  const m = MARGIN.exec(el.getAttribute('style') ?? '');
  return m ? { size: Number(m[1]), unit: m[2].toLowerCase() } : undefined;
}

/**
 * An element's content in bold when it reads as a term (one token: `[:xdigit:]`, `\NNN`, `2`; a
 * label of several words may be an example's caption or a message, unless it is a command: an
 * EXAMPLES entry's `comm -12 file1 file2`, or a SETTING) and has no bold
 * of its own (groff's `**--color**[=WHEN]` is marked already). A cell holding one paragraph: that paragraph's.
 */
export function boldTerm(cell: Element): boolean {
  const only = cell.children.length === 1 && cell.children[0].tagName === 'P' ? cell.children[0] : cell;
  const text = (only.textContent ?? '').trim();
  if (
    !text ||
    text.length > MAX_TERM ||
    (/\s/.test(text) && !looksLikeCommand(text) && !SETTING.test(text)) ||
    /[.!?:]$/.test(text) ||
    only.querySelector('b, strong, p, div')
  )
    return false;
  const strong = only.ownerDocument.createElement('strong');
  strong.append(...only.childNodes);
  only.append(strong);
  return true;
}

/** groff's mark on the HTML it writes. */
const GROFF = /<meta\s+name="generator"\s+content="groff\b/i;

/**
 * Each paragraph followed by one indented further: its term made bold (boldTerm). In groff's HTML
 * a paragraph with no indent given is at the margin: mdoc pages (nginx(8), ssh(1)) set their terms
 * so (`<p>SIGHUP</p>` over an indented description), and their section names as bold paragraphs in
 * capitals, which man(7) pages write as `<h2>`: those become headings.
 */
export function boldIndentedTerms(html: string): string {
  if (!MARGIN.test(html)) return html;
  // A fragment is read as a body: linkedom gives a bare fragment no document to write back.
  const { document } = parseHTML(/<html[\s>]/i.test(html) ? html : `<!DOCTYPE html><html><body>${html}</body></html>`);
  const groff = GROFF.test(html);
  let changed = false;
  for (const p of [...document.querySelectorAll(groff ? 'p' : 'p[style]')]) {
    if (groff && sectionName(p)) {
      const h2 = document.createElement('h2');
      h2.textContent = (p.textContent ?? '').trim();
      p.replaceWith(h2);
      changed = true;
      continue;
    }
    const description = marginOf(p.nextElementSibling);
    const term = marginOf(p) ?? (groff && description ? { size: 0, unit: description.unit } : undefined);
    if (term && description && term.unit === description.unit && description.size > term.size)
      changed = splitLeadIn(p) || boldTerm(p) || changed;
  }
  return changed ? document.documentElement.outerHTML : html;
}

/** A paragraph at the margin holding only a name in bold capitals: an mdoc page's section. */
function sectionName(p: Element): boolean {
  const text = (p.textContent ?? '').trim();
  return (
    !marginOf(p) &&
    p.children.length === 1 &&
    p.children[0].tagName === 'B' &&
    text === (p.children[0].textContent ?? '').trim() &&
    /^\p{Lu}[\p{Lu} ]+$/u.test(text)
  );
}

/**
 * groff sets a subheading and the next term in one bold paragraph ("The following five options are
 * useful only when verifying checksums: <br> --ignore-missing", grep's "Matching Control <br> -e"):
 * the lead-in becomes a paragraph of its own over the term, as it is read; a subsection's name
 * over an option becomes its heading.
 */
function splitLeadIn(p: Element): boolean {
  const first = p.firstElementChild;
  const opens = first && (p.textContent ?? '').trimStart().startsWith((first.textContent ?? '').trim());
  const bold = opens && /^(?:B|STRONG)$/.test(first.tagName) ? first : undefined;
  const br = bold ? [...bold.children].find((c) => c.tagName === 'BR') : undefined;
  if (!bold || !br) return false;
  const before: ChildNode[] = [];
  for (let n = bold.firstChild; n && n !== br; n = n.nextSibling) before.push(n);
  const lead = before
    .map((n) => n.textContent ?? '')
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
  let after = '';
  for (let n = br.nextSibling; n; n = n.nextSibling) after += n.textContent ?? '';
  after = after.trim();
  const leadIn = lead.endsWith(':') && p.children.length === 1;
  // help2man writes a subsection's name with its colon ("Operation mode:" over envsubst's -v).
  const subsection = /^\p{Lu}[\p{L} ]{2,60}:?$/u.test(lead) && after.startsWith('-');
  if (!(leadIn || subsection) || !after) return false;
  const para = p.ownerDocument.createElement(leadIn ? 'p' : 'h3');
  para.textContent = leadIn ? lead : lead.replace(/:$/, '');
  p.before(para);
  for (const n of before) n.remove();
  br.remove();
  return true;
}
