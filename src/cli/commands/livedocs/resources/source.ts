import { readFile } from 'node:fs/promises';
import type { Deps } from '../../../deps.js';
import { usageError } from '../../../exit-codes.js';
import { readStdin } from '../../../io/prompt.js';

/** Markdown from --file PATH, --file - (stdin) or --content TEXT: exactly one of them. */
export async function markdownFrom(opts: { file?: string; content?: string }, deps: Deps): Promise<string> {
  if ((opts.file === undefined) === (opts.content === undefined))
    throw usageError('give the Markdown with exactly one of --file PATH, --file - or --content TEXT');
  if (opts.content !== undefined) return opts.content;
  if (opts.file === '-') return readStdin(deps.streams.stdin);
  try {
    return await readFile(opts.file!, 'utf8');
  } catch (err) {
    throw usageError(`cannot read ${opts.file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}
