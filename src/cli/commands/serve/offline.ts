import type { Command } from 'commander';
import type { StoreLocation } from './offline-data-dir.js';

/**
 * Opens the store without a server, for the offline management verbs: the data dir's SQLite file
 * (WAL mode lets them run while `facet serve` uses it) or the PostgreSQL database of --database-url.
 */
export async function withStore<T>(
  where: StoreLocation,
  fn: (ctx: {
    db: import('kysely').Kysely<import('../../../server/store/database.js').Database>;
    now: () => Date;
  }) => Promise<T>,
): Promise<T> {
  const [{ openStore }, { resolveDataDir }] = await Promise.all([
    import('../../../server/store/store.js'),
    import('../../../server/data-dir.js'),
  ]);
  const store = where.databaseUrl
    ? await openStore({ dataDir: null, databaseUrl: where.databaseUrl })
    : await openStore({ dataDir: (await import('./offline-data-dir.js')).offlineDataDir(where, resolveDataDir) });
  try {
    return await fn({ db: store.db, now: () => new Date() });
  } catch (err) {
    throw await asCliError(err);
  } finally {
    await store.close();
  }
}

export const dataDirOption = (cmd: Command) =>
  cmd
    .option(
      '--data-dir <dir>',
      "the data dir (default: FACET_DATA_DIR, else the running local server's, else the OS data dir)",
    )
    .option('--create', 'make the records in a data dir that has none yet (else an empty data dir is refused)')
    .option(
      '--database-url <url>',
      'the PostgreSQL database of a `facet serve --database-url` (env FACET_DATABASE_URL)',
    );

/**
 * `serve` has its own --data-dir, and commander gives an option to the first command that knows
 * it, so `facet serve users list --data-dir X` lands on `serve`: read it from the whole chain.
 */
export function dataDirOf(cmd: Command): StoreLocation {
  const opts = cmd.optsWithGlobals<{ dataDir?: string; databaseUrl?: string; create?: boolean; quiet?: boolean }>();
  return {
    dataDir: opts.dataDir,
    databaseUrl: opts.databaseUrl ?? (process.env.FACET_DATABASE_URL || undefined),
    create: opts.create,
    quiet: opts.quiet,
  };
}

/**
 * The services answer bad input with an HttpError (a 400/422 for a server's caller); offline the
 * caller typed it, so it ends as a usage error (exit 2), and a missing record as not found (4).
 */
async function asCliError(err: unknown): Promise<unknown> {
  const { HttpError } = await import('../../../server/errors.js');
  if (!(err instanceof HttpError)) return err;
  const { CliError, EXIT, exitCodeForStatus } = await import('../../exit-codes.js');
  return new CliError(
    err.message,
    err.status === 400 || err.status === 422 ? EXIT.usage : exitCodeForStatus(err.status),
  );
}
