import type { Ora } from 'ora';
import type { Deps } from '../deps.js';
import { CliError, EXIT } from '../exit-codes.js';
import { forTerminal } from './terminal-text.js';

/** A spinner's line may carry server text (a status, a title): shown escaped, on one line. */
const line = (text: string) => forTerminal(text, { lines: false });

export interface SpinnerOptions {
  /**
   * The error Ctrl-C ends the command with (exit 130), built when it is pressed so that it can
   * say where to pick up again (`facet tasks wait ID`, a stream's current offset).
   */
  interrupted: () => CliError;
}

/**
 * Something the CLI waits on, with a spinner for people at a terminal, and Ctrl-C that always
 * stops the waiting. Every wait with a spinner goes through here, so none can swallow Ctrl-C.
 */
export interface Waiting {
  /** Aborted on Ctrl-C; its reason is the CliError to end with. Pass it to requests and sleeps. */
  readonly signal: AbortSignal;
  /** True while a spinner is drawn (else callers print their own progress lines). */
  readonly drawn: boolean;
  setText(text: string): void;
  succeed(text: string): void;
  fail(text: string): void;
  /** Clears the spinner; Ctrl-C keeps interrupting until close(). */
  clear(): void;
  /** Resolves as `p` does, or rejects with the interrupt as soon as Ctrl-C is pressed. */
  race<T>(p: Promise<T>): Promise<T>;
  /** Throws the interrupt if Ctrl-C was pressed. */
  throwIfInterrupted(): void;
  /** Clears the spinner and gives Ctrl-C back to its default. Always call it (finally). */
  close(): void;
}

/** Only for people at a terminal, never with --quiet. ora divides by the width: a pty that reports 0 columns gets none. */
function canDraw(deps: Deps): boolean {
  const stderr = deps.streams.stderr as NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  return Boolean(stderr.isTTY) && !deps.globals().quiet && typeof stderr.columns === 'number' && stderr.columns > 0;
}

/**
 * Starts waiting: a spinner on stderr when one may be drawn (a terminal, not --quiet), and a
 * SIGINT listener for as long as the wait lasts, drawn or not.
 *
 * Why the listener: ora's `discardStdin` puts the terminal in raw mode (`-isig`), so Ctrl-C is
 * a byte on stdin rather than a signal, and its discarder never reads stdin (it adds a 'data'
 * listener without resuming the stream), so the byte went nowhere and the wait ran on. We keep
 * the terminal as it is (`discardStdin: false`): Ctrl-C is a real SIGINT, which lands here.
 * A listener is needed even then: ora's cursor restorer (signal-exit) re-raises the signal when
 * it is the only listener, which would kill the process before the hint is printed. A second
 * Ctrl-C ends the process at once, in case something does not unwind.
 */
export async function startSpinner(deps: Deps, text: string, options: SpinnerOptions): Promise<Waiting> {
  const controller = new AbortController();
  let spinner: Ora | undefined;
  if (canDraw(deps)) {
    const { default: ora } = await import('ora');
    spinner = ora({ stream: deps.streams.stderr, text: line(text), discardStdin: false }).start();
  }
  const clear = () => {
    if (spinner?.isSpinning) spinner.stop();
    spinner = undefined;
  };
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(EXIT.interrupted);
    clear();
    controller.abort(options.interrupted());
  };
  process.on('SIGINT', onSigint);
  const interruptedError = () => controller.signal.reason as CliError;
  return {
    signal: controller.signal,
    get drawn() {
      return spinner !== undefined;
    },
    setText(t) {
      if (spinner) spinner.text = line(t);
    },
    succeed(t) {
      spinner?.succeed(line(t));
      spinner = undefined;
    },
    fail(t) {
      spinner?.fail(line(t));
      spinner = undefined;
    },
    clear,
    race<T>(p: Promise<T>): Promise<T> {
      if (controller.signal.aborted) return Promise.reject(interruptedError());
      return new Promise<T>((resolve, reject) => {
        const onAbort = () => reject(interruptedError());
        controller.signal.addEventListener('abort', onAbort, { once: true });
        p.then(resolve, reject).finally(() => controller.signal.removeEventListener('abort', onAbort));
      });
    },
    throwIfInterrupted() {
      if (controller.signal.aborted) throw interruptedError();
    },
    close() {
      clear();
      process.off('SIGINT', onSigint);
    },
  };
}
