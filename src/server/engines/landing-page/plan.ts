import { z } from 'zod';
import { readModelJson, type ModelJson } from '../model-json.js';

/**
 * A landing page as data: what the model plans (or the local composer builds from the passages),
 * before any HTML. The renderer draws exactly this; citations in text are `[n]` markers that
 * refer to `sources[].ref`.
 */
export interface PageSource {
  ref: number;
  title: string;
  /** The LiveDoc resource the passage came from. */
  resourceId: string;
  /** The resource's original address, when it has one (shown as text, never loaded). */
  link: string;
}

export type IconName = 'spark' | 'layers' | 'chart' | 'shield' | 'clock' | 'globe' | 'book' | 'check';
export const ICONS: readonly IconName[] = ['spark', 'layers', 'chart', 'shield', 'clock', 'globe', 'book', 'check'];

export interface PageSection {
  heading: string;
  /** Paragraphs, each may carry [n] citations. */
  paragraphs: string[];
  /** A list the section's answer gave as a list, kept as one (each item may carry citations). */
  items?: string[];
  /** A table of the section's sources, as the source wrote it (inline Markdown cells), with its source. */
  table?: PageTable;
  icon: IconName;
}

export interface PageTable {
  header: string[];
  rows: string[][];
  ref: number;
}

export interface KeyNumber {
  value: string;
  label: string;
  ref: number;
}

export interface FaqEntry {
  question: string;
  answer: string;
}

export interface PagePlan {
  /** BCP 47 language of the page (`lang` attribute). */
  lang: string;
  title: string;
  tagline: string;
  /** The page's lead paragraph, with citations. */
  summary: string;
  sections: PageSection[];
  keyNumbers: KeyNumber[];
  faq: FaqEntry[];
  sources: PageSource[];
  /** Who planned it: the model's own JSON plan, or the local composer over the model's answers. */
  plannedBy: 'model' | 'composer';
}

/** Bounds on what a page shows, so a verbose model cannot make an endless page. */
export const PLAN_LIMITS = {
  titleChars: 120,
  taglineChars: 240,
  summaryChars: 1200,
  sections: 6,
  paragraphsPerSection: 4,
  itemsPerSection: 8,
  tableRows: 8,
  tableColumns: 5,
  paragraphChars: 1200,
  keyNumbers: 4,
  faq: 6,
  /**
   * Characters of a model reply that are read: a reply is asked for in at most 2048 tokens, so this
   * only bounds a model that ignores it (a megabyte-long reply took seconds to compose from).
   */
  replyChars: 32_000,
} as const;

/** The JSON an upstream model is asked for (and the prompt shows): field names as in the prompt. */
export const ModelPlan = z.object({
  title: z.string().min(1),
  tagline: z.string().default(''),
  summary: z.string().default(''),
  sections: z
    .array(
      z.object({
        heading: z.string().min(1),
        body: z.union([z.string(), z.array(z.string())]),
        icon: z.string().optional(),
      }),
    )
    .min(1),
  key_numbers: z
    .array(
      z.object({ value: z.union([z.string(), z.number()]), label: z.string(), source: z.number().int().optional() }),
    )
    .default([]),
  faq: z.array(z.object({ question: z.string().min(1), answer: z.string().min(1) })).default([]),
});
export type ModelPlan = z.infer<typeof ModelPlan>;

export const PLAN_PROMPT = `Plan a landing page that answers the request below, using ONLY the numbered sources.
Reply with one JSON object and nothing else, of this shape:
{"title": "short headline", "tagline": "one sentence", "summary": "2-3 sentences with citations like [1]",
 "sections": [{"heading": "...", "body": ["paragraph with citations [2]", "..."], "icon": "one of ${ICONS.join(', ')}"}],
 "key_numbers": [{"value": "42%", "label": "what the number measures", "source": 1}],
 "faq": [{"question": "...", "answer": "... [3]"}]}
Use 2 to 5 sections, at most 4 key numbers taken verbatim from the sources, at most 5 FAQ entries.`;

/** The plan in a model's reply (its first {...}, repaired when malformed), or what was wrong with it. */
export function readModelPlan(text: string): ModelJson<ModelPlan> {
  return readModelJson(text, ModelPlan);
}

/**
 * Whether a reply set out to be the JSON plan (an object first, bare or in a fence), not prose: an
 * extractive answer may open with a quoted code block (`logger.profile(…)`) and is still prose.
 */
export const triedJson = (text: string) => /^\s*(?:```[\w-]*\s*)?\{/.test(text);
