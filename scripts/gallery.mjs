// Bundles scripts/render-theme-gallery.ts with esbuild and runs it (see that file).
import { build } from 'esbuild';
import { pathToFileURL } from 'node:url';
const out = new URL('../dist/gallery-script.mjs', import.meta.url).pathname;
await build({
  entryPoints: [new URL('./render-theme-gallery.ts', import.meta.url).pathname],
  outfile: out,
  bundle: true,
  format: 'esm',
  platform: 'node',
  packages: 'external',
  logLevel: 'warning',
  banner: {
    js: `import { createRequire } from 'node:module'; const require = createRequire(${JSON.stringify(new URL('../package.json', import.meta.url).pathname)});`,
  },
  define: { 'import.meta.dirname': JSON.stringify(new URL('.', import.meta.url).pathname) },
});
await import(pathToFileURL(out).href);
