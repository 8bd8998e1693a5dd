/**
 * Lines the document writers (decks, landing pages, mindmaps) never present as a point: a page's
 * furniture that extraction may have left (cookie banners, copyright and legal links, navigation,
 * printed-page headers and footers) and table headers or rows read as sentences. Extraction removes
 * most of it; this is the writers' own guard, so a bullet is always something a source says.
 */

const BOILERPLATE: RegExp[] = [
  /\bcookies?\b.*\b(use|accept|consent|settings|preferences|policy|experience)\b|\b(accept|reject|manage)\s+(all\s+)?cookies\b/i,
  /©|\(c\)\s*\d{4}|\bcopyright\b|\ball rights reserved\b/i,
  /\bprivacy\b\s*(policy)?\s*[·|•/–-]\s*\bterms\b|\bterms\s+(of\s+(use|service)|&\s+conditions)\b.*[·|•]/i,
  /^\s*page\s+\d+\s*(of|\/)\s*\d+\s*$|\bpage\s+\d+\s+of\s+\d+\b/i,
  /\bclick\s+here\b|\bskip\s+to\s+(main\s+)?content\b|\bback\s+to\s+top\b|\bread\s+more\s*(»|›|→)?\s*$/i,
  /^\s*(home|menu|search|sign\s+in|log\s*in|subscribe|share|print|next|previous)\b(\s*[·|•›>»/]\s*\S+){1,}/i,
  /\b(subscribe to (our|the) newsletter|follow us on|share (this|on) (facebook|twitter|x|linkedin))\b/i,
  /^\s*https?:\/\/\S+\s*$/i,
  /^\s*\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4},?\s+\d{1,2}:\d{2}(\s*[ap]m)?\b/i,
  /(本网站使用|接受).{0,6}cookie|版权所有|隐私政策\s*[·|]|第\s*\d+\s*页\s*[,，/]?\s*共\s*\d+\s*页/i,
];

/** Several short items joined by separators: a navigation bar or a breadcrumb. */
function isNavigation(line: string): boolean {
  const items = line.split(/\s*[·|•›»]\s*|\s+>\s+/).filter(Boolean);
  return items.length >= 3 && items.every((i) => i.split(/\s+/).length <= 3);
}

export function isBoilerplate(line: string): boolean {
  const s = line.trim();
  return BOILERPLATE.some((re) => re.test(s)) || isNavigation(s);
}

/**
 * A table header or row flattened into a line: pipe or tab separated cells, or a run of
 * capitalised labels, units and figures with no sentence in it ("Model Price (USD) Weight (kg)").
 */
export function isTableLike(line: string): boolean {
  const s = line.trim();
  if ((s.match(/\|/g) ?? []).length >= 2 || (s.match(/\t/g) ?? []).length >= 1) return true;
  if (/[.!?。！？:]$/.test(s) || /[\u3400-\u9fff]/.test(s)) return false;
  const words = s.split(/\s+/);
  if (words.length < 2 || words.length > 10) return false;
  return words.every((w) => /^[\p{Lu}\p{N}$€£¥(%]/u.test(w) || /^\(?[a-z]{1,3}\)?$/.test(w));
}

/** A line a writer may show: neither furniture nor a flattened table. */
export const isProse = (line: string) => !isBoilerplate(line) && !isTableLike(line);
