import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/server/engines/extract/html.js';
import { localOutline } from '../../../src/server/engines/slides/outline-writer.js';
import { BENCH_DOCS } from '../../helpers/answers-over-docs.js';

// gzip's man page as groff renders it (bench/content/docs, sources in bench/content/SOURCES.md).
const gzip = async () => htmlToMarkdown(readFileSync(path.join(BENCH_DOCS, 'gzip-man.html'), 'utf8'));

describe("a deck's points from a man page's options", () => {
  it('name the option each describes: "-a --ascii — This option is supported only on some non-Unix systems."', async () => {
    const content = await gzip();
    const outline = localOutline({
      query: 'gzip options',
      passages: [{ ref: 1, title: 'gzip', content, source: 'r1' }],
      maxSlides: 6,
    });
    const points = outline.slides.flatMap((s) => s.points).map((p) => p.replace(/\*\*/g, ''));
    const orphan = points.filter((p) => /^(?:This|With this) option\b/.test(p));
    expect(orphan).toEqual([]);
    expect(points.some((p) => /^-\S+ --\S+ — /.test(p))).toBe(true);
  });

  it('make one point of each option, its first sentence: a later one under the term reads as what it does', async () => {
    const content = await gzip();
    const outline = localOutline({
      query: 'gzip options',
      passages: [{ ref: 1, title: 'gzip', content, source: 'r1' }],
      maxSlides: 8,
    });
    const points = outline.slides.flatMap((s) => s.points).map((p) => p.replace(/\*\*/g, ''));
    const terms = points.map((p) => /^(-\S+(?: --?\S+)*) — /.exec(p)?.[1]).filter((t) => t !== undefined);
    expect(terms.length).toBeGreaterThan(0);
    expect(new Set(terms).size).toBe(terms.length);
    expect(points.filter((p) => /^-f --force — If -f is not given/.test(p))).toEqual([]);
  });
});
