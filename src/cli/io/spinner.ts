import type { Ora } from 'ora';
import type { Deps } from '../deps.js';

/**
 * A spinner on stderr, or none: only for people at a terminal, never with --quiet. ora divides by
 * the terminal width, so a pty that reports 0 columns would make it clear lines forever; such a
 * terminal gets no spinner either. ora itself loads only when one is drawn.
 */
export async function startSpinner(deps: Deps, text: string): Promise<Ora | undefined> {
  const stderr = deps.streams.stderr as NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  if (!stderr.isTTY || deps.globals().quiet || !(typeof stderr.columns === 'number' && stderr.columns > 0)) return undefined;
  const { default: ora } = await import('ora');
  return ora({ stream: stderr, text }).start();
}
