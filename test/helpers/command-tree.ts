import type { Command } from 'commander';
import { createProgram, registerAll } from '../../src/cli/main.js';
import type { Deps } from '../../src/cli/deps.js';

export interface TreeCommand {
  /** The command's words after `facet` (`livedocs resources get`). */
  words: string;
  command: Command;
  /** Whether it runs something (a group without an action only lists its subcommands). */
  runs: boolean;
}

/** Every command of the CLI as commander holds it, depth first: tests read the tree, so a new command is covered. */
export async function commandTree(): Promise<TreeCommand[]> {
  const sink = { write: () => true };
  const deps = { streams: { stdout: sink, stderr: sink, stdin: process.stdin }, env: {}, version: '0' };
  const program = createProgram(deps as unknown as Deps);
  await registerAll(program, deps as unknown as Deps);
  const out: TreeCommand[] = [];
  const walk = (cmd: Command, words: string[]) => {
    for (const sub of cmd.commands) {
      const here = [...words, sub.name()];
      const runs = Boolean((sub as unknown as { _actionHandler?: unknown })._actionHandler);
      out.push({ words: here.join(' '), command: sub, runs });
      walk(sub, here);
    }
  };
  walk(program, []);
  return out;
}
