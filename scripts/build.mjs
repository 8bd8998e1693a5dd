// Bundles the CLI into dist/cli.js. Code splitting keeps each command group, and the server,
// in its own chunk so `facet --version` loads only commander and the launcher. dist/worker.js is
// the server's CPU worker thread (engines/workers), found next to the server's bundle at run time.
import { build } from 'esbuild';
import path from 'node:path';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/**
 * Packages bundled into the chunks instead of loaded from node_modules at run time: small pure-JS
 * ones every command loads. zod alone is ~100 files; reading and linking them one by one was a
 * large share of a command's start-up (bench/cli-startup). Everything else stays external.
 */
const BUNDLED = new Set(['zod', 'chalk']);
const externalExceptBundled = {
  name: 'external-except-bundled',
  setup(b) {
    b.onResolve({ filter: /^[^./#]/ }, (args) => {
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
      return BUNDLED.has(name) ? undefined : { path: args.path, external: true };
    });
  },
};

/**
 * zod re-exports all of its ~50 message locales (340 KB, nearly half of it) as `z.locales`; facet
 * speaks English and never uses that export, so the bundle keeps `en` alone.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({ contents: 'export { default as en } from "./en.js";\n', loader: 'js', resolveDir: path.dirname(args.path) }));
  },
};

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli/main.ts', server: 'src/server/index.ts', worker: 'src/server/engines/workers/worker.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  plugins: [externalExceptBundled, zodEnglishOnly],
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
  define: { __FACET_VERSION__: JSON.stringify(version) },
});

// `facet --version` alone is answered by the launcher from this file, without loading the CLI.
writeFileSync(new URL('../dist/version.js', import.meta.url), `export const VERSION = ${JSON.stringify(version)};\n`);
