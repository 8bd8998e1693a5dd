import { Parser } from 'htmlparser2';
import { DOCUMENT_LIMITS, overLimit } from './limits.js';

const RAW_TEXT = new Set(['script', 'style']);

/**
 * One linear pass over HTML before anything builds a tree of it: refuses a document nested deeper
 * than htmlMaxDepth, with more than htmlMaxElements elements, or with more than htmlMaxChars of
 * markup outside scripts and styles. It tokenizes with htmlparser2, the parser linkedom builds its
 * trees with, so implied closes (`<li>`, `<p>`) count as they will there, and inline tags left
 * open (`<b><i><b>…`) count as the nesting they become.
 */
export function checkHtml(html: string): void {
  let depth = 0;
  let elements = 0;
  let rawChars = 0;
  let rawDepth = 0;
  const parser = new Parser(
    {
      onopentagname(name) {
        elements++;
        depth++;
        if (RAW_TEXT.has(name)) rawDepth++;
        // Thrown from the tokenizer's callback: the pass stops at the first bound crossed.
        if (depth > DOCUMENT_LIMITS.htmlMaxDepth)
          throw overLimit('htmlMaxDepth', `the HTML nests elements more than ${DOCUMENT_LIMITS.htmlMaxDepth} deep`);
        if (elements > DOCUMENT_LIMITS.htmlMaxElements)
          throw overLimit(
            'htmlMaxElements',
            `the HTML has more than ${DOCUMENT_LIMITS.htmlMaxElements.toLocaleString('en-US')} elements`,
          );
      },
      onclosetag(name) {
        depth--;
        if (RAW_TEXT.has(name) && rawDepth > 0) rawDepth--;
      },
      ontext(text) {
        if (rawDepth > 0) rawChars += text.length;
      },
    },
    { decodeEntities: false },
  );
  parser.end(html);
  const chars = html.length - rawChars;
  if (chars > DOCUMENT_LIMITS.htmlMaxChars)
    throw overLimit(
      'htmlMaxChars',
      `the HTML has ${chars.toLocaleString('en-US')} characters outside scripts and styles`,
    );
}
