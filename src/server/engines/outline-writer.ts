import { stemmer } from 'stemmer';
import { keywords } from './retrieval/fts-query.js';

/**
 * The local grounded model's outline: a Markdown mindmap written from the passages a call brings
 * (their titles become branches, their sentences most about the question become points, and a list
 * inside a sentence becomes sub-points). Deterministic, offline, and a pure function of its input,
 * like the extractive answer writer it sits beside.
 */
export interface OutlineRequest {
  query: string;
  passages: Array<{ title: string; content: string }>;
}

const MAX_BRANCHES = 7;
const POINTS_PER_BRANCH = 4;
const MAX_POINT = 90;

function sentencesOf(text: string): string[] {
  return text
    .replace(/^#{1,6}\s+.*$/gm, ' ')
    .replace(/[*_`>]+/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .split(/(?<=[.!?。！？])\s*|\n{2,}|\n(?=[-*]\s)|\n/)
    .map((s) => s.replace(/\s+/g, ' ').replace(/^[-*\d.)]+\s+/, '').trim())
    .filter((s) => [...s].length >= 6 && s.length <= 600);
}

/** "Make a mind map about X" -> "X", first line, first letter upper case, cut at a word. */
export function topicOf(query: string): string {
  let t = query.trim().split(/\n/)[0];
  t = t.replace(/^(please\s+)?(make|create|draw|build|generate|give me)\s+(me\s+)?(a\s+)?(mind\s*map|mindmap|map|outline|overview)\s+(of|about|on|for)\s+/i, '');
  t = t.replace(/[?.!]+$/, '').trim();
  return shorten(t.charAt(0).toUpperCase() + t.slice(1), 70) || 'Mind map';
}

/** A point's label: the sentence, or its first clause, cut at a word boundary. */
function shorten(s: string, max = MAX_POINT): string {
  const clean = s.replace(/[.。]$/, '').trim();
  if ([...clean].length <= max) return clean;
  const clause = /^(.{25,}?)[,;:—–](\s|$)/.exec(clean);
  if (clause && [...clause[1]].length <= max) return clause[1].trim();
  const cut = [...clean].slice(0, max).join('');
  const space = cut.lastIndexOf(' ');
  return (space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, '') + '…';
}

/**
 * "Head: a, b and c" or "Options are a, b and c" -> a head and its items, when the items are short
 * enough to be labels; the head is what comes before the colon or the verb that opens the list.
 */
function listItems(s: string): { head: string; items: string[] } | null {
  const text = s.replace(/[.。]$/, '');
  const colon = /^([^:]{3,60}):\s*(.+)$/.exec(text);
  const lead = colon ? null : /^(.{3,60}?)\s+(?:are|is|were|include|includes|including|such as|like|covers?|consists? of)\s+(.+)$/i.exec(text);
  const found = colon ?? lead;
  if (!found) return null;
  const items = found[2]
    .split(/,\s*(?:and\s+|or\s+)?|;\s*|\s+and\s+|\s+or\s+|、/)
    .map((x) => x.trim())
    .filter(Boolean);
  if (items.length < 3 || items.some((x) => [...x].length > 48)) return null;
  return { head: found[1].trim(), items: items.slice(0, 5) };
}

export function extractiveOutline(req: OutlineRequest): string {
  const topic = topicOf(req.query);
  const want = new Set(keywords(req.query).map((w) => stemmer(w)));
  const lines = [`# ${topic}`, ''];
  if (req.passages.length === 0) {
    // Nothing to ground on: the question's own parts, and what is missing, rather than invented facts.
    const parts = req.query
      .split(/[,;?\n]|\s+and\s+|\s+vs\.?\s+/i)
      .map((p) => p.trim())
      .filter((p) => keywords(p).length > 0);
    const branches = parts.length > 1 ? parts.map((p) => shorten(p, 60)) : keywords(req.query).slice(0, 5);
    for (const b of branches.slice(0, MAX_BRANCHES)) {
      lines.push(`## ${b.charAt(0).toUpperCase() + b.slice(1)}`);
      lines.push(`- No source in this LiveDoc covers "${b}" yet`);
      lines.push('- Add documents or pages about it, then draw the map again');
    }
    return lines.join('\n') + '\n';
  }
  // Branches: one per source title, in order of relevance (the passages come ranked).
  const groups = new Map<string, string[]>();
  for (const p of req.passages) {
    const key = p.title.trim() || 'Notes';
    if (!groups.has(key) && groups.size >= MAX_BRANCHES) continue;
    groups.set(key, [...(groups.get(key) ?? []), p.content]);
  }
  for (const [title, contents] of groups) {
    const seen = new Set<string>();
    const scored = contents
      .flatMap((c) => sentencesOf(c))
      .filter((s) => (seen.has(s) ? false : (seen.add(s), true)))
      .map((s, order) => {
        const words = new Set(keywords(s).map((w) => stemmer(w)));
        let score = 0;
        for (const w of words) if (want.has(w)) score++;
        return { s, order, score };
      });
    const picked = [...scored]
      .sort((a, b) => b.score - a.score || a.order - b.order)
      .slice(0, POINTS_PER_BRANCH)
      .sort((a, b) => a.order - b.order);
    if (picked.length === 0) continue;
    lines.push(`## ${shorten(title, 60)}`);
    for (const { s } of picked) {
      const list = listItems(s);
      if (list) {
        lines.push(`- ${list.head}`);
        for (const item of list.items) lines.push(`  - ${shorten(item, 48)}`);
      } else lines.push(`- ${shorten(s)}`);
    }
  }
  return lines.join('\n') + '\n';
}
