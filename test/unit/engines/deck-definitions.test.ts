import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/server/engines/extract/html.js';
import { localOutline } from '../../../src/server/engines/slides/outline-writer.js';
import { BENCH_DOCS } from '../../helpers/answers-over-docs.js';

// gzip's man page as groff renders it (bench/content/docs, sources in bench/content/SOURCES.md).
const gzip = async () => htmlToMarkdown(readFileSync(path.join(BENCH_DOCS, 'gzip-man.html'), 'utf8'));

/** The points of a local deck about gzip's options, without their bold marks. */
const deckPoints = async (maxSlides: number) => {
  const outline = localOutline({
    query: 'gzip options',
    passages: [{ ref: 1, title: 'gzip', content: await gzip(), source: 'r1' }],
    maxSlides,
  });
  return outline.slides.flatMap((s) => s.points).map((p) => p.replace(/\*\*/g, ''));
};

describe("a deck's points from a man page's options", () => {
  it('name the option each describes, and none is a sentence about "this option" alone', async () => {
    const points = await deckPoints(6);
    const orphan = points.filter((p) => /^(?:This|With this) option\b/.test(p));
    expect(orphan).toEqual([]);
    expect(points.some((p) => /^-\S+ --\S+ — /.test(p))).toBe(true);
  });

  it('make one point of each option, its first sentence: a later one under the term reads as what it does', async () => {
    const points = await deckPoints(8);
    const terms = points.map((p) => /^(-\S+(?: --?\S+)*) — /.exec(p)?.[1]).filter((t) => t !== undefined);
    expect(terms.length).toBeGreaterThan(0);
    expect(new Set(terms).size).toBe(terms.length);
    expect(points.filter((p) => /^-f --force — If -f is not given/.test(p))).toEqual([]);
  });
});
