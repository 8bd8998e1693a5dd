import type { IO } from '../io/output.js';

/**
 * The one output rule of every create verb (create, add-*, upload*): with --json the response
 * data; on a terminal the record for people; piped, the new ids alone, one per line, so that
 * `ID=$(facet … create …)` works the same for every kind of thing. Messages go to stderr.
 */
export function printCreated(io: IO, data: unknown, ids: string[], human: () => void): void {
  if (io.json) io.printJson(data);
  else if (io.stdoutIsTTY) human();
  else for (const id of ids) io.write(id + '\n');
}
