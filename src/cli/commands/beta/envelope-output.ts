import type { Envelope } from '../../../client/beta.js';
import { CliError, EXIT } from '../../exit-codes.js';
import type { IO } from '../../io/output.js';

/**
 * Reading the provider envelope on the command line: a request or task the provider refused is a
 * non-zero exit naming its status code and message (HTTP stays 200 for those, spec 7.1).
 */
export function exitCodeForTask(code: number): number {
  if (code === 40400 || code === 40401) return EXIT.notFound;
  if (code === 40000) return EXIT.usage;
  return EXIT.failure;
}

/** The first task's result, or the task's error as a CliError. */
export function taskResult<T = unknown>(env: Envelope): T[] {
  if (env.status_code >= 40000)
    throw new CliError(
      `the provider refused the request: ${env.status_message} (status ${env.status_code})`,
      exitCodeForTask(env.status_code),
    );
  const task = env.tasks[0];
  if (!task) throw new CliError('the provider answered without a task');
  if (task.status_code >= 40000)
    throw new CliError(`task error ${task.status_code}: ${task.status_message}`, exitCodeForTask(task.status_code));
  return (task.result ?? []) as T[];
}

/** --raw prints the envelope(s), --json the result, else the human rendering. */
export function printOutcome(
  io: IO,
  opts: { raw?: boolean },
  envelopes: Envelope[],
  result: unknown,
  human: () => void,
): void {
  if (opts.raw) return io.printJson(envelopes.length === 1 ? envelopes[0] : envelopes);
  io.print(result, human);
}
