/**
 * The typed slide model: what the outline becomes before layout. Every later step (layout, writing,
 * previews, the viewer, indexing) reads these types only.
 */

/** A passage a slide rests on, cited in its speaker notes as "[ref] title (resource id)". */
export interface Citation {
  ref: number;
  resourceId: string;
  title: string;
  passage: string;
}

export interface ChartSpec {
  type: 'bar' | 'line';
  categories: string[];
  /** `unit` ('' when unknown): series of different units are drawn as separate charts, never on one axis. */
  series: Array<{ name: string; values: number[]; unit?: string }>;
  /** Shown under the chart: where the numbers come from. */
  caption: string;
}

interface SlideBase {
  title: string;
  citations: Citation[];
}

export type SlideModel =
  | (SlideBase & { kind: 'title'; subtitle: string })
  | (SlideBase & { kind: 'points'; points: string[] })
  | (SlideBase & { kind: 'chart'; chart: ChartSpec })
  | (SlideBase & { kind: 'closing'; points: string[] });

export interface DeckModel {
  title: string;
  lang: 'en' | 'zh-Hans';
  slides: SlideModel[];
}

/** The outline as the model writes it (structured output "slide_outline"); refs point at passages. */
export interface Outline {
  title: string;
  subtitle: string;
  slides: Array<{ title: string; points: string[]; sources: number[] }>;
  takeaways: string[];
}

export const OUTLINE_FORMAT_NAME = 'slide_outline';

/** The JSON schema of the outline; `maxSlides` bounds the content slides. */
export function outlineSchema(maxSlides: number): Record<string, unknown> {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['title', 'subtitle', 'slides', 'takeaways'],
    properties: {
      title: { type: 'string', description: 'deck title, at most 10 words' },
      subtitle: { type: 'string' },
      slides: {
        type: 'array',
        minItems: 1,
        maxItems: maxSlides,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['title', 'points', 'sources'],
          properties: {
            title: { type: 'string', description: 'at most 8 words' },
            points: {
              type: 'array',
              minItems: 1,
              maxItems: 5,
              items: { type: 'string', description: 'one claim from the passages, at most 25 words' },
            },
            sources: {
              type: 'array',
              items: { type: 'integer', description: 'the [n] of a passage the points rest on' },
            },
          },
        },
      },
      takeaways: { type: 'array', maxItems: 4, items: { type: 'string' } },
    },
  };
}
