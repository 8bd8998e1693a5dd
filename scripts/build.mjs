// Bundles the CLI into dist/cli.js. Code splitting keeps each command group, and the server,
// in its own chunk so `facet --version` loads only commander and the launcher. dist/worker.js is
// the server's CPU worker thread (engines/workers), found next to the server's bundle at run time.
import { build } from 'esbuild';
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

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli/main.ts', server: 'src/server/index.ts', worker: 'src/server/engines/workers/worker.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  plugins: [externalExceptBundled],
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
  define: { __FACET_VERSION__: JSON.stringify(version) },
});

// `facet --version` alone is answered by the launcher from this file, without loading the CLI.
writeFileSync(new URL('../dist/version.js', import.meta.url), `export const VERSION = ${JSON.stringify(version)};\n`);
