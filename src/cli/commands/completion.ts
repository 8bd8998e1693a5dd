import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Argument, type Command } from 'commander';
import type { Deps } from '../deps.js';
import { fileName, generate, SHELLS, type Shell } from '../completion/generate.js';
import { packageRoot } from '../package-root.js';
import { usageError } from '../exit-codes.js';

export function register(program: Command, deps: Deps): void {
  program
    .command('completion')
    .description('Print a shell completion script; --write regenerates completions/ in the package')
    .addArgument(new Argument('[shell]', 'the shell').choices(SHELLS))
    .option('--write', 'write all three scripts into the completions/ folder')
    .addHelpText('after', '\nExamples:\n  $ facet completion bash > ~/.local/share/bash-completion/completions/facet\n  $ facet completion zsh > "${fpath[1]}/_facet"\n  $ facet completion fish > ~/.config/fish/completions/facet.fish')
    .action((shell: Shell | undefined, opts: { write?: boolean }) => {
      if (opts.write) {
        const dir = path.join(packageRoot(), 'completions');
        mkdirSync(dir, { recursive: true });
        for (const s of SHELLS) writeFileSync(path.join(dir, fileName(s)), generate(program, s));
        deps.io().success(`wrote ${SHELLS.map(fileName).join(', ')} to ${dir}`);
        return;
      }
      if (!shell) throw usageError('name a shell: bash, zsh or fish');
      deps.io().write(generate(program, shell));
    });
}
