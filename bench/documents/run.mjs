// bench/documents: generated documents — a slide deck (deck.mjs) and, when bench/documents/mindmap.mjs
// exists, mindmaps (its run()). Needs `npm run build`.
import { existsSync } from 'node:fs';

const { run: deck } = await import('./deck.mjs');
console.log('-- deck of about 10 slides from a 50-resource LiveDoc');
await deck();
if (existsSync(new URL('./mindmap.mjs', import.meta.url))) {
  const { run: mindmap } = await import('./mindmap.mjs');
  console.log('-- mindmap');
  await mindmap();
}
