import { spawn } from 'node:child_process';
import { BIN } from './platform.js';

export interface PtyRun {
  /** Everything the command wrote to its terminal so far (stdout and stderr, as a person sees it). */
  output(): string;
  /** The end of the output, for assertion messages (a spinner writes a lot). */
  tail(): string;
  /** Types on the terminal's keyboard: '\x03' is Ctrl-C, '\r' is Enter. */
  type(keys: string): void;
  /** Resolves once the output matches; fails after `ms` with the output so far. */
  waitFor(re: RegExp, ms?: number): Promise<void>;
  /** The command's exit code (130 for a process that handled Ctrl-C, 128+n if a signal killed it). */
  exited: Promise<number>;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs the built CLI on a pseudo-terminal, as a person at a terminal would (util-linux `script`):
 * stdin, stdout and stderr are one TTY of a known size, and a Ctrl-C typed on it reaches the
 * command through the terminal's line discipline, not as a signal sent by the test. The
 * environment is a person's, not CI's: no CI variable, so spinners and prompts are live.
 * Bounded: the command is killed after `timeout` ms.
 */
export function runOnPty(
  args: string[],
  options: { configDir: string; env?: Record<string, string>; timeout?: number; cols?: number },
): PtyRun {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && k !== 'CI' && k !== 'PAGER' && !k.startsWith('FACET_')) env[k] = v;
  Object.assign(env, { TERM: 'xterm-256color', NO_COLOR: '1', FACET_CONFIG_DIR: options.configDir }, options.env);
  const command = `stty cols ${options.cols ?? 100} rows 30; exec node ${[BIN, ...args].map(quote).join(' ')}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  const waiters = new Set<() => void>();
  const onData = (d: Buffer) => {
    out += d.toString('utf8');
    for (const w of waiters) w();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const killer = setTimeout(() => child.kill('SIGKILL'), options.timeout ?? 30_000);
  const exited = new Promise<number>((resolve) => {
    child.on('exit', (code, signal) => {
      clearTimeout(killer);
      for (const w of waiters) w();
      resolve(code ?? 128 + (signal === 'SIGKILL' ? 9 : 2));
    });
  });
  return {
    output: () => out,
    tail: () => out.slice(-1500),
    type: (keys) => child.stdin.write(keys),
    exited,
    waitFor(re, ms = 20_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (re.test(out)) done(resolve);
          else if (child.exitCode !== null || child.signalCode !== null)
            done(() => reject(new Error(`the command ended before ${re}:\n${out.slice(-1500)}`)));
        };
        const timer = setTimeout(
          () => done(() => reject(new Error(`no ${re} within ${ms} ms:\n${out.slice(-1500)}`))),
          ms,
        );
        const done = (then: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          then();
        };
        waiters.add(check);
        check();
      });
    },
  };
}

/**
 * Answers `facet login`'s prompts on a terminal: the default base URL, this API key, no access
 * token, then yes or no to replacing the profile's credentials.
 */
export async function answerLoginPrompts(run: PtyRun, apiKey: string, replace: boolean): Promise<void> {
  await run.waitFor(/Platform base URL/);
  run.type('\r');
  await run.waitFor(/API key/);
  run.type(`${apiKey}\r`);
  await run.waitFor(/Access token/);
  run.type('\r');
  await run.waitFor(/Replace it\?/);
  run.type(replace ? 'y\r' : 'n\r');
}
