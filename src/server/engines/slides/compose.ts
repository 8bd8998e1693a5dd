import { performance } from 'node:perf_hooks';
import type { DeckModel } from './model.js';
import type { ThemeSpec } from './theme-spec.js';
import { layoutDeck, slideText } from './layout.js';
import { writeDeck } from './write.js';

export interface ComposeDeckInput {
  deck: DeckModel;
  theme: ThemeSpec;
}

/**
 * Layout and writing of one deck, the CPU-heavy part of a slide task (run in the worker pool):
 * the .pptx bytes, each slide's text (indexed for retrieval, shown by the viewer without previews)
 * and how long each step took.
 */
export async function composeDeck(
  input: ComposeDeckInput,
): Promise<{ pptx: Uint8Array; slides: Array<{ title: string; text: string }>; layoutMs: number; writeMs: number }> {
  const t0 = performance.now();
  const laid = layoutDeck(input.deck, input.theme);
  const t1 = performance.now();
  const pptx = await writeDeck(laid, input.theme, { title: input.deck.title });
  const t2 = performance.now();
  // A fresh ArrayBuffer the worker can move to the caller instead of copying.
  const bytes = new Uint8Array(new ArrayBuffer(pptx.byteLength));
  bytes.set(pptx);
  return {
    pptx: bytes,
    slides: laid.map((s) => ({ title: s.title, text: slideText(s) })),
    layoutMs: t1 - t0,
    writeMs: t2 - t1,
  };
}
