import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Argument, Option, type Command } from 'commander';
import type { Deps } from '../deps.js';
import { fileName, generate, SHELLS, type Shell } from '../completion/generate.js';
import { packageRoot } from '../package-root.js';
import { usageError } from '../exit-codes.js';

/**
 * Where each shell looks for a user's completions without a line of configuration (fish, bash with
 * bash-completion 2) or with one fpath line (zsh: no per-user directory is searched by default).
 */
function installPath(shell: Shell, env: NodeJS.ProcessEnv): { file: string; hint?: string } {
  const home = env.HOME || os.homedir();
  const data = env.XDG_DATA_HOME || path.join(home, '.local', 'share');
  const config = env.XDG_CONFIG_HOME || path.join(home, '.config');
  switch (shell) {
    case 'bash':
      return {
        file: path.join(data, 'bash-completion', 'completions', 'facet'),
        hint: 'needs the bash-completion package; open a new shell',
      };
    case 'zsh': {
      const dir = path.join(data, 'zsh', 'site-functions');
      return {
        file: path.join(dir, fileName('zsh')),
        hint: `add \`fpath=(${dir} $fpath)\` before \`compinit\` in ~/.zshrc, then open a new shell`,
      };
    }
    case 'fish':
      return { file: path.join(config, 'fish', 'completions', fileName('fish')), hint: 'open a new shell' };
    case 'powershell': {
      // Beside the profile PowerShell loads ($PROFILE), which has to dot-source it.
      const dir =
        process.platform === 'win32' ? path.join(home, 'Documents', 'PowerShell') : path.join(config, 'powershell');
      const file = path.join(dir, fileName('powershell'));
      return { file, hint: `add \`. "${file}"\` to $PROFILE, then open a new shell` };
    }
  }
}

function detectShell(env: NodeJS.ProcessEnv): Shell {
  const name = path.basename(env.SHELL ?? '');
  if ((SHELLS as readonly string[]).includes(name)) return name as Shell;
  if (name === 'pwsh' || env.PSModulePath) return 'powershell';
  throw usageError(`cannot tell the shell from SHELL=${env.SHELL ?? ''}`, 'pass --shell bash, zsh, fish or powershell');
}

export function register(program: Command, deps: Deps): void {
  const completion = program
    .command('completion')
    .description('Print a shell completion script; --write regenerates completions/ in the package')
    .addArgument(new Argument('[shell]', 'the shell').choices(SHELLS))
    .option('--write', "write every shell's script into the completions/ folder")
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet completion bash > ~/.local/share/bash-completion/completions/facet\n  $ facet completion zsh > "${fpath[1]}/_facet"\n  $ facet completion fish > ~/.config/fish/completions/facet.fish\n  $ facet completion powershell > facet.ps1   # then add `. ./facet.ps1` to $PROFILE',
    )
    .action((shell: Shell | undefined, opts: { write?: boolean }) => {
      if (opts.write) {
        const dir = path.join(packageRoot(), 'completions');
        mkdirSync(dir, { recursive: true });
        for (const s of SHELLS) writeFileSync(path.join(dir, fileName(s)), generate(program, s));
        deps.io().success(`wrote ${SHELLS.map(fileName).join(', ')} to ${dir}`);
        return;
      }
      if (!shell) throw usageError('name a shell: bash, zsh, fish or powershell');
      deps.io().write(generate(program, shell));
    });

  completion
    .command('install')
    .description("Write the completion script where the shell finds it (the user's directory, created if missing)")
    .addOption(new Option('--shell <shell>', 'the shell (default: from $SHELL)').choices(SHELLS))
    .addHelpText('after', '\nExamples:\n  $ facet completion install\n  $ facet completion install --shell fish')
    .action((opts: { shell?: Shell }) => {
      const shell = opts.shell ?? detectShell(deps.env);
      const { file, hint } = installPath(shell, deps.env);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, generate(program, shell));
      const io = deps.io();
      io.print({ shell, file }, () => {
        io.success(`wrote ${shell} completions to ${file}`);
        if (hint) io.info(`hint: ${hint}`);
      });
    });
}
