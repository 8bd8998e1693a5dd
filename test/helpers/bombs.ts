/** Hostile documents, built in code (shared with bench/event-loop, which sends them while it measures). */
export {
  docxBomb,
  docxOf,
  flatPage,
  flateBombPdf,
  lyingSizes,
  manyPagePdf,
  nestedDivs,
  themeBomb,
  unclosedInline,
  zipOf,
} from '../../bench/lib/hostile-inputs.mjs';
