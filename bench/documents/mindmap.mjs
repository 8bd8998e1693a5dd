#!/usr/bin/env node
/**
 * Mindmap drawing bench: a 200-node tree, laid out and drawn as SVG, then rasterised to PNG (resvg
 * setting the labels itself and encoding), in each of the six layouts, with the engine the server
 * runs. Prints the median of a few runs per layout and checks the target (PNG well under 1 s:
 * under 500 ms). Baseline in the same run: resvg drawing the SVG without its labels, so a loaded
 * machine still shows how much of the time the text takes.
 *
 *   node bench/documents/mindmap.mjs            standalone, prints a table
 *   import { run } from './mindmap.mjs'         returns the rows (bench/documents/run.mjs)
 */
import { mkdirSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-js';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RUNS = 5;
const PNG_TARGET_MS = 500;

/**
 * The engine the server runs, bundled from src/ into dist/bench/ (inside the project, so its
 * packages resolve): no server, no worker, just the drawing, so the figures are the engine's own.
 */
async function loadEngine() {
  const { build } = await import('esbuild');
  const outfile = path.join(ROOT, 'dist/bench/mindmap-engine.mjs');
  mkdirSync(path.dirname(outfile), { recursive: true });
  await build({
    entryPoints: [path.join(ROOT, 'src/server/engines/mindmap/index.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  return import(pathToFileURL(outfile).href);
}

/** 200 nodes: 8 branches, each with 6 points, most with 3 sub-points; labels of realistic length. */
export function benchTree() {
  const words = [
    'market',
    'pricing',
    'onboarding',
    'retention',
    'latency',
    'storage',
    'growth',
    'support',
    'security',
    'design',
    'hiring',
    'budget',
  ];
  let made = 1;
  const label = (i, n) =>
    `${words[i % words.length]} ${['review', 'plan', 'risk', 'metric', 'owner', 'milestone'][n % 6]} ${i * 7 + n}${n % 4 === 0 ? ' with a longer note that wraps' : ''}`;
  const root = { text: 'Company strategy for the next two years', children: [] };
  for (let b = 0; b < 8 && made < 200; b++) {
    const branch = { text: `${words[b]} workstream`, children: [] };
    root.children.push(branch);
    made++;
    for (let p = 0; p < 6 && made < 200; p++) {
      const point = { text: label(b, p), children: [] };
      branch.children.push(point);
      made++;
      for (let s = 0; s < 3 && made < 200; s++) {
        point.children.push({ text: label(b + p, s + 1), children: [] });
        made++;
      }
    }
  }
  return root;
}

const count = (t) => 1 + t.children.reduce((s, c) => s + count(c), 0);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run() {
  const engine = await loadEngine();
  const tree = benchTree();
  // Warm-up: fonts are opened once per process (and once per worker thread in the server).
  await engine.renderBoth(tree, 'MIND_MAP', true);
  const rows = [];
  for (const layout of engine.LAYOUTS) {
    const svgMs = [];
    const pngMs = [];
    const baseMs = [];
    let drawn;
    for (let i = 0; i < RUNS; i++) {
      // As the server does: layout and SVG, then (a separate request) layout and PNG.
      const t0 = performance.now();
      drawn = engine.renderSvg(tree, layout);
      const t1 = performance.now();
      await engine.renderBoth(tree, layout, true);
      pngMs.push(performance.now() - t1);
      svgMs.push(t1 - t0);
      // Baseline in the same run: the same drawing without its labels.
      const t2 = performance.now();
      new Resvg(drawn.svg.replace(/<text[^]*?<\/text>/g, ''), { font: { loadSystemFonts: false }, shapeRendering: 2 })
        .render()
        .asPng();
      baseMs.push(performance.now() - t2);
    }
    rows.push({
      name: `mindmap ${layout}`,
      nodes: count(tree),
      size: `${drawn.width}x${drawn.height}`,
      svg_ms: +median(svgMs).toFixed(1),
      png_ms: +median(pngMs).toFixed(1),
      baseline_png_ms: +median(baseMs).toFixed(1),
      png_target_ms: PNG_TARGET_MS,
      ok: median(pngMs) < PNG_TARGET_MS,
    });
  }
  return rows;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const rows = await run();
  console.log(
    'layout                   nodes  size        SVG ms  PNG ms  no-label PNG ms  text share  (target PNG < 500 ms)',
  );
  for (const r of rows) {
    const share = `${Math.round(100 * (1 - r.baseline_png_ms / r.png_ms))}%`;
    console.log(
      `${r.name.slice(8).padEnd(24)} ${String(r.nodes).padStart(5)}  ${r.size.padEnd(10)} ${String(r.svg_ms).padStart(7)} ${String(r.png_ms).padStart(7)} ${String(r.baseline_png_ms).padStart(16)}  ${share.padStart(10)}  ${r.ok ? 'ok' : 'OVER'}`,
    );
  }
}
