/**
 * THE escaper for text put into HTML, SVG or XML, as element content or a quoted attribute value:
 * the five characters markup gives meaning to. `&#39;` rather than `&apos;`, which old HTML lacks.
 */
export function escapeMarkup(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
