// bench/documents: generated documents — a slide deck from a 50-resource LiveDoc (deck.mjs), a
// 200-node mindmap drawn in every layout (mindmap.mjs) and a landing page (landing-page.mjs), each
// against its own baseline in the same run. Needs `npm run build`.
const parts = [
  ['deck of about 10 slides from a 50-resource LiveDoc', './deck.mjs'],
  ['mindmap of 200 nodes, SVG and PNG per layout', './mindmap.mjs'],
  ['landing page from a 50-document LiveDoc', './landing-page.mjs'],
];
for (const [title, file] of parts) {
  const { run } = await import(file);
  console.log(`-- ${title}`);
  await run();
}
