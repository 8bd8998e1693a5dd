// Renders every default theme's sample deck to PNG (LibreOffice → PDF → pdftoppm) and keeps the
// chosen slide of each as docs/gallery/theme-<id>.png; with --all, every slide in /tmp/facet-gallery.
// Run: node scripts/gallery.mjs [--all]
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_THEMES } from '../src/server/engines/slides/themes.js';
import { sampleDeck } from '../src/server/engines/slides/sample.js';
import { layoutDeck } from '../src/server/engines/slides/layout.js';
import { writeDeck } from '../src/server/engines/slides/write.js';
import { renderPreviews } from '../src/server/engines/slides/preview.js';

const all = process.argv.includes('--all');
const only = process.argv.find((a) => a.startsWith('--theme='))?.slice(8);
const root = path.resolve(import.meta.dirname, '..');
mkdirSync(path.join(root, 'docs/gallery'), { recursive: true });
mkdirSync('/tmp/facet-gallery', { recursive: true });
for (const theme of DEFAULT_THEMES) {
  if (only && theme.id !== only) continue;
  const deck = sampleDeck(theme.id === 'lantern' ? 'zh-Hans' : 'en');
  const pptx = await writeDeck(layoutDeck(deck, theme), theme, { title: deck.title });
  const pngs = await renderPreviews(pptx, { width: 960 });
  if (all) pngs.forEach((png, i) => writeFileSync(`/tmp/facet-gallery/${theme.id}-${i + 1}.png`, png));
  writeFileSync(`/tmp/facet-gallery/${theme.id}.pptx`, pptx);
  // The points slide shows title, body and background together: the theme's most telling page.
  writeFileSync(path.join(root, `docs/gallery/theme-${theme.id}.png`), pngs[1]);
  console.log(theme.id, pngs.length, 'slides');
}
