// Bundles the CLI into dist/cli.js. Code splitting keeps each command group, and the server,
// in its own chunk so `facet --version` loads only commander and the launcher. dist/worker.js is
// the server's CPU worker thread and dist/render-child.js its render child process (native code)
// (engines/workers), both found next to the server's bundle at run time.
import { build } from 'esbuild';
import path from 'node:path';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/**
 * Packages bundled into the chunks instead of loaded from node_modules at run time: small pure-JS
 * ones every command loads. zod alone is ~100 files; reading and linking them one by one was a
 * large share of a command's start-up (bench/cli-startup). commander (CommonJS: loading it from an
 * ES module went through the CommonJS loader and its export scanner) and the config folder's
 * env-paths (with is-safe-filename) are on every command's path too: each package resolved from
 * node_modules costs its package.json lookups. english-verbs-irregular is a JSON file: bundled, it
 * needs no import attribute at run time. Everything else stays external.
 */
const BUNDLED = new Set(['zod', 'chalk', 'commander', 'env-paths', 'is-safe-filename', 'english-verbs-irregular']);
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
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js";\n',
      loader: 'js',
      resolveDir: path.dirname(args.path),
    }));
  },
};

/**
 * commander is CommonJS. Bundled into ES module chunks, its require() of Node's own modules would
 * throw (an ES module has no require), so those calls become process.getBuiltinModule (Node
 * >= 20.16; package.json asks for 20.19), the synchronous way an ES module gets a built-in. Its
 * require() of its own files is bundled by esbuild as usual. node:child_process (with dgram and
 * more, about 2 ms) serves only commander's executable subcommands, which facet has none of: it
 * is loaded on first use, through a proxy.
 */
const LAZY_BUILTINS = new Set(['node:child_process']);
const builtinRequires = {
  name: 'builtin-requires',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]commander[\\/].*\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const contents = source.replace(/\brequire\((['"])(node:[\w/]+)\1\)/g, (_, _q, id) =>
        LAZY_BUILTINS.has(id)
          ? `new Proxy({}, { get: (_, key) => globalThis.process.getBuiltinModule(${JSON.stringify(id)})[key] })`
          : `globalThis.process.getBuiltinModule(${JSON.stringify(id)})`,
      );
      return { contents, loader: 'js' };
    });
  },
};

/**
 * chalk's own colour detection (supports-color: node:tty and node:os loaded and the environment
 * read as chalk loads) is never used: io/output.ts gives every Chalk its level from --no-color,
 * NO_COLOR, FORCE_COLOR and whether the stream is a terminal. The bundle takes the package's
 * non-Node variant of that module (its `default` condition), which loads nothing.
 */
const chalkWithoutDetection = {
  name: 'chalk-without-detection',
  setup(b) {
    b.onResolve({ filter: /^#supports-color$/ }, (args) => ({
      path: path.join(path.dirname(args.importer), 'vendor/supports-color/browser.js'),
    }));
  },
};

/**
 * `import process from 'node:process'` (env-paths does) is the global process object, but as an
 * ES module import Node builds it a facade that reads every property of process once, getters
 * included (the stdio streams, the diagnostic report module): 5-10 ms alone, about 2 ms of
 * `facet keys list`, which needs stdout anyway (bench/cli-startup). Bundled code gets the global
 * itself; a named import from node:process would fail the build here rather than behave
 * differently.
 */
const processGlobal = {
  name: 'process-global',
  setup(b) {
    b.onResolve({ filter: /^(node:)?process$/ }, () => ({ path: 'process', namespace: 'process-global' }));
    b.onLoad({ filter: /.*/, namespace: 'process-global' }, () => ({
      contents: 'export default globalThis.process;\n',
      loader: 'js',
    }));
  },
};

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: {
    cli: 'src/cli/main.ts',
    server: 'src/server/index.ts',
    worker: 'src/server/engines/workers/worker.ts',
    'render-child': 'src/server/engines/workers/child.ts',
  },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  plugins: [processGlobal, externalExceptBundled, zodEnglishOnly, builtinRequires, chalkWithoutDetection],
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
  define: { __FACET_VERSION__: JSON.stringify(version) },
});

// `facet --version` alone is answered by the launcher (CommonJS) from this file, without loading the CLI.
writeFileSync(new URL('../dist/version.json', import.meta.url), JSON.stringify({ version }) + '\n');
