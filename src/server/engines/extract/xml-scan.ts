/**
 * The contents of each `<tag>…</tag>` or `<tag …>…</tag>` in order, found with indexOf so that an
 * element left open costs one scan, not one per opening (a lazy regex would go quadratic).
 */
export function elementsOf(xml: string, tag: string): string[] {
  const out: string[] = [];
  const close = `</${tag}>`;
  let at = 0;
  for (;;) {
    const open = xml.indexOf(`<${tag}`, at);
    if (open < 0) break;
    const after = xml[open + tag.length + 1];
    const gt = xml.indexOf('>', open);
    if (gt < 0) break;
    if (after !== '>' && after !== ' ' && after !== '/') {
      at = open + 1;
      continue;
    }
    if (xml[gt - 1] === '/') {
      at = gt + 1;
      continue;
    }
    const end = xml.indexOf(close, gt);
    if (end < 0) break;
    out.push(xml.slice(gt + 1, end));
    at = end + close.length;
  }
  return out;
}
