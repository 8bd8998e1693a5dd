import type { Deps } from '../deps.js';
import { CliError, EXIT } from '../exit-codes.js';
import { startSpinner } from '../io/spinner.js';
import { facetCommand } from '../io/follow-up.js';

export interface FollowResult {
  answer: string;
  /** Events received: where `facet conversations stream KEY --offset N` would resume. */
  offset: number;
}

/**
 * Prints a conversation answer as it arrives: a spinner on stderr until the first chunk, chunks on
 * stdout (unless quiet, for --json), automatic resume after a dropped connection, and Ctrl-C ends
 * with exit 130 and a hint to resume.
 */
export async function followStream(
  deps: Deps,
  streamKey: string,
  options: { offset?: number; print: boolean },
): Promise<FollowResult> {
  const api = await deps.api('conversations');
  const io = deps.io();
  let answer = '';
  let offset = options.offset ?? 0;
  // The interrupt is built when Ctrl-C lands, so its hint carries the offset reached by then.
  const waiting = await startSpinner(deps, 'thinking…', {
    interrupted: () =>
      new CliError(
        'interrupted',
        EXIT.interrupted,
        `resume with: ${facetCommand(deps, `conversations stream ${streamKey} --offset ${offset}`)}`,
      ),
  });
  try {
    for await (const ev of api.conversations.stream(streamKey, {
      offset,
      signal: waiting.signal,
      onReconnect: ({ offset: at, attempt, reason }) => {
        if (deps.globals().debug || io.stderrIsTTY)
          io.info(`\n[connection dropped (${reason}); resuming at event ${at}, attempt ${attempt}]`);
      },
    })) {
      offset = ev.offset + 1;
      if (ev.event === 'message') {
        waiting.clear();
        answer += ev.data.content;
        if (options.print) io.write(ev.data.content);
      } else if (ev.event === 'error') {
        waiting.clear();
        if (options.print && answer) io.write('\n');
        throw new CliError(`the answer failed: ${ev.data.message}`, EXIT.failure);
      } else {
        waiting.clear();
        if (options.print && answer && !answer.endsWith('\n')) io.write('\n');
      }
    }
    return { answer, offset };
  } catch (err) {
    waiting.clear();
    if (waiting.signal.aborted) {
      if (options.print && answer) io.write('\n');
      waiting.throwIfInterrupted();
    }
    throw err;
  } finally {
    waiting.close();
  }
}
