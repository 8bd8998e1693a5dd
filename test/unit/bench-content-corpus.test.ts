import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The content benchmark's corpus (bench/content) stays consistent: every document is in the splits
 * manifest and on disk, the splits are disjoint and each covers every upload format and a Chinese or
 * Japanese document, every question's documents belong to its split, and the counts the benchmark
 * promises hold. Reads files only; no server.
 */
const DIR = path.resolve(import.meta.dirname, '../../bench/content');

interface DocMeta {
  split: 'dev' | 'heldout';
  format: string;
  add: 'upload' | 'url';
  subject: string;
  lang: string;
}
interface Question {
  id: string;
  kind: string;
  docs: string[];
  question: string;
  facts: (string | string[])[];
  origin: 'generated' | 'hand';
}

const manifest = (JSON.parse(readFileSync(path.join(DIR, 'splits.json'), 'utf8')) as { docs: Record<string, DocMeta> })
  .docs;
const questions = {
  dev: JSON.parse(readFileSync(path.join(DIR, 'questions.dev.json'), 'utf8')) as Question[],
  heldout: JSON.parse(readFileSync(path.join(DIR, 'questions.heldout.json'), 'utf8')) as Question[],
};
const all = [...questions.dev, ...questions.heldout];
const FORMATS = ['markdown', 'web page', 'Chromium PDF', 'LibreOffice DOCX', 'plain text', 'man page HTML'];

describe('bench/content corpus', () => {
  it('has every document of docs/ in the manifest and every manifest entry in docs/', () => {
    const files = readdirSync(path.join(DIR, 'docs')).sort();
    expect(Object.keys(manifest).sort()).toEqual(files);
    expect(files.length).toBeGreaterThanOrEqual(30);
  });

  it('splits the documents in two, each with every format, a web page added by URL and a CJK document', () => {
    for (const split of ['dev', 'heldout'] as const) {
      const docs = Object.values(manifest).filter((d) => d.split === split);
      expect(docs.length, split).toBeGreaterThanOrEqual(12);
      expect(new Set(docs.map((d) => d.format)), split).toEqual(
        new Set([...FORMATS, ...docs.filter((d) => !FORMATS.includes(d.format)).map((d) => d.format)]),
      );
      for (const format of FORMATS)
        expect(
          docs.some((d) => d.format === format),
          `${split} ${format}`,
        ).toBe(true);
      expect(
        docs.some((d) => d.add === 'url'),
        `${split} by URL`,
      ).toBe(true);
      expect(
        docs.some((d) => ['zh', 'ja'].includes(d.lang)),
        `${split} CJK`,
      ).toBe(true);
    }
    expect(Object.values(manifest).filter((d) => ['zh', 'ja'].includes(d.lang)).length).toBeGreaterThanOrEqual(3);
  });

  it('gives each question documents of its own split only, and unique ids', () => {
    for (const split of ['dev', 'heldout'] as const)
      for (const q of questions[split]) {
        for (const doc of q.docs) {
          expect(manifest[doc], `${q.id}: ${doc}`).toBeDefined();
          expect(manifest[doc].split, `${q.id}: ${doc}`).toBe(split);
          expect(existsSync(path.join(DIR, 'docs', doc))).toBe(true);
        }
        if (q.kind === 'not-covered') expect(q.facts, q.id).toEqual([]);
        else expect(q.docs.length > 0 && q.facts.length > 0, q.id).toBe(true);
      }
    expect(new Set(all.map((q) => q.id)).size).toBe(all.length);
  });

  it('asks at least 300 questions: mostly generated, 40 by hand, 30 unanswerable', () => {
    expect(all.length).toBeGreaterThanOrEqual(300);
    const answerable = all.filter((q) => q.kind !== 'not-covered');
    expect(answerable.filter((q) => q.origin === 'generated').length).toBeGreaterThan(all.length / 2);
    expect(answerable.filter((q) => q.origin === 'hand').length).toBeGreaterThanOrEqual(40);
    expect(all.filter((q) => q.kind === 'not-covered').length).toBeGreaterThanOrEqual(30);
    for (const split of ['dev', 'heldout'] as const) {
      expect(questions[split].filter((q) => q.kind === 'not-covered').length, split).toBeGreaterThanOrEqual(10);
      expect(questions[split].filter((q) => q.docs.length > 1).length, split).toBeGreaterThanOrEqual(5);
    }
  });
});
