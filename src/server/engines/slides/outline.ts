import { z } from 'zod';
import type { ModelGateway, MeterScope } from '../gateway-types.js';
import { OUTLINE_FORMAT_NAME, outlineSchema, type Outline } from './model.js';
import { generateModelJson } from '../model-json.js';

/** A retrieved passage the outline may cite as [ref]. */
export interface SourcePassage {
  ref: number;
  resourceId: string;
  resourceTitle: string;
  /** The section heading the passage sits under, or the resource title. */
  section: string;
  content: string;
}

const OutlineShape = z.object({
  title: z.string().trim().min(1).max(300),
  subtitle: z.string().max(300).default(''),
  slides: z
    .array(
      z.object({
        title: z.string().trim().min(1).max(300),
        points: z.array(z.string().trim().min(1).max(1000)).min(1).max(8),
        sources: z.array(z.number().int()).default([]),
      }),
    )
    .min(1)
    .max(40),
  takeaways: z.array(z.string().trim().min(1).max(1000)).max(6).default([]),
});

/** The outline's text was not an outline: the task fails with this message. */
export class OutlineInvalid extends Error {}

function prompt(query: string, passages: SourcePassage[], maxSlides: number, lang: string): string {
  const sources = passages.map((p) => `[${p.ref}] ${p.section}\n${p.content}`).join('\n\n');
  return [
    `Write the outline of a slide deck that answers: ${query}`,
    `Use only the numbered passages below. At most ${maxSlides} content slides, each with 2-4 short points (at most 25 words each) and the numbers of the passages it rests on in "sources".`,
    `Write in ${lang === 'zh-Hans' ? 'Simplified Chinese' : 'English'}. Answer with one JSON object of this schema and nothing else:`,
    JSON.stringify(outlineSchema(maxSlides)),
    '',
    'Passages:',
    sources,
  ].join('\n');
}

/**
 * The outline, generated through the model gateway (metered under `scope`): the local grounded
 * model writes it from the passages; an upstream model follows the prompt. Points and sources are
 * checked here; refs that name no passage are dropped.
 */
export async function generateOutline(
  gateway: ModelGateway,
  input: {
    query: string;
    passages: SourcePassage[];
    maxSlides: number;
    lang: 'en' | 'zh-Hans';
    scope: MeterScope;
    signal?: AbortSignal;
    model?: string;
  },
): Promise<{ outline: Outline; model: string }> {
  // A reply that is not an outline, even repaired, is asked for once more; then the task fails saying why.
  const { result, json } = await generateModelJson(
    gateway,
    {
      model: input.model,
      system: 'You turn source passages into concise, well-structured slide outlines. You never invent facts.',
      messages: [{ role: 'user', content: prompt(input.query, input.passages, input.maxSlides, input.lang) }],
      question: input.query,
      context: input.passages.map((p) => ({
        id: String(p.ref),
        title: p.section,
        content: p.content,
        link: p.resourceId,
      })),
      artifact: { kind: OUTLINE_FORMAT_NAME, maxSlides: input.maxSlides },
      maxTokens: 4096,
      scope: input.scope,
      signal: input.signal,
    },
    OutlineShape,
  );
  if (!json.ok) throw new OutlineInvalid(`the model's outline could not be used, asked twice: ${json.problem}`);
  const refs = new Set(input.passages.map((p) => p.ref));
  const outline: Outline = {
    ...json.value,
    slides: json.value.slides
      .slice(0, input.maxSlides)
      .map((s) => ({ ...s, sources: s.sources.filter((r) => refs.has(r)) })),
  };
  return { outline, model: result.model };
}
