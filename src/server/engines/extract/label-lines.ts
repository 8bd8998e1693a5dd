import { LABEL_JOINER } from '../../text/term-paragraph.js';

/**
 * A line break inside a paragraph before a line that is only a label, as groff writes a man page's
 * first option after the sentence above it: `<p>… for short options too. <b><br>-b</b>,
 * <b>--print-bytes</b></p>`. As Markdown the break was lost (`too.** -b**`) and the option was no
 * term of its own; here the label line becomes a paragraph of its own, as every other option is.
 */
const INLINE = new Set(['B', 'STRONG', 'I', 'EM', 'CODE', 'TT', 'SPAN']);
const LABEL = new Set(['B', 'STRONG', 'CODE', 'TT']);

const blank = (n: Node) => n.nodeType === 3 && !(n.textContent ?? '').trim();

export function splitLabelLines(root: ParentNode): void {
  for (const br of [...root.querySelectorAll('p br')]) {
    hoist(br);
    const p = br.parentElement;
    if (p?.tagName !== 'P') continue;
    const after: ChildNode[] = [];
    for (let n = br.nextSibling; n; n = n.nextSibling) after.push(n);
    const elements = after.filter((n): n is Element => n.nodeType === 1);
    const before = [...p.childNodes].slice(0, [...p.childNodes].indexOf(br));
    const isLabel =
      elements.some((e) => LABEL.has(e.tagName)) &&
      elements.every((e) => INLINE.has(e.tagName)) &&
      after.every((n) => n.nodeType === 1 || LABEL_JOINER.test(n.textContent ?? '')) &&
      before.some((n) => !blank(n));
    if (!isLabel) continue;
    const line = p.ownerDocument.createElement('p');
    for (const n of after) line.appendChild(n);
    br.remove();
    p.after(line);
  }
}

/** A break that opens an inline element (`<b><br>-b</b>`) moved before it: the line starts there. */
function hoist(br: Element): void {
  let el = br.parentElement;
  while (el && INLINE.has(el.tagName) && [...el.childNodes].find((n) => !blank(n)) === br) {
    el.before(br);
    el = br.parentElement;
  }
}
