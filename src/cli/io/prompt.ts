import type { Deps } from '../deps.js';
import { CliError, EXIT, usageError } from '../exit-codes.js';

/** Reads all of stdin (for --*-stdin and --input -), trimmed of the trailing newline. */
export async function readStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** Asks for a secret on a TTY; without one, names the option that gives the value instead. */
export async function askSecret(deps: Deps, message: string, option: string): Promise<string> {
  if (!deps.canPrompt()) throw usageError(`${message} is needed`, `pass ${option}`);
  const { password } = await import('@inquirer/prompts');
  return password({ message, mask: '*' }, { input: deps.streams.stdin, output: deps.streams.stderr });
}

export async function askText(deps: Deps, message: string, option: string, initial?: string): Promise<string> {
  if (!deps.canPrompt()) {
    if (initial !== undefined) return initial;
    throw usageError(`${message} is needed`, `pass ${option}`);
  }
  const { input } = await import('@inquirer/prompts');
  return input({ message, default: initial }, { input: deps.streams.stdin, output: deps.streams.stderr });
}

/**
 * Confirms a destructive step. --yes skips the question; where no question can be asked, --yes is
 * required, so a script never deletes by accident. "No" is a decline, not an interruption: exit 1
 * with "nothing done" (Ctrl-C at the prompt stays exit 130).
 */
export async function confirm(deps: Deps, message: string): Promise<void> {
  if (deps.globals().yes) return;
  if (!deps.canPrompt()) throw usageError(`${message}: confirmation needed`, 'pass --yes to confirm without a prompt');
  const { confirm: ask } = await import('@inquirer/prompts');
  const ok = await ask({ message, default: false }, { input: deps.streams.stdin, output: deps.streams.stderr });
  if (!ok) throw new CliError('nothing done', EXIT.failure);
}
