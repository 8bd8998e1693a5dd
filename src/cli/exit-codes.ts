/** Exit codes are part of the CLI's contract (README "Exit codes"); change them never. */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  rateLimited: 5,
  taskFailed: 6,
  interrupted: 130,
} as const;

/** An error the CLI raises on purpose, with the exit code it ends with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failure,
    readonly hint?: string,
    /** Already said in the command's own output (serve's JSON log): ends with its code, printed no more. */
    readonly reported = false,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export const usageError = (message: string, hint?: string) => new CliError(message, EXIT.usage, hint);

/** The one place an HTTP status becomes an exit code. */
export function exitCodeForStatus(status: number): number {
  if (status === 401 || status === 403) return EXIT.auth;
  if (status === 404 || status === 410) return EXIT.notFound;
  if (status === 429 || status === 402) return EXIT.rateLimited;
  return EXIT.failure;
}
