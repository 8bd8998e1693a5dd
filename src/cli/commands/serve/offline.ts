import type { Command } from 'commander';

/**
 * Opens a data dir's store without a server, for the offline management verbs. SQLite in WAL mode
 * lets them run while `facet serve` uses the same directory.
 */
export async function withStore<T>(dataDir: string | undefined, fn: (ctx: { db: import('kysely').Kysely<import('../../../server/store/database.js').Database>; now: () => Date }) => Promise<T>): Promise<T> {
  const [{ openStore }, { resolveDataDir }] = await Promise.all([
    import('../../../server/store/store.js'),
    import('../../../server/data-dir.js'),
  ]);
  const store = await openStore({ dataDir: resolveDataDir(dataDir) });
  try {
    return await fn({ db: store.db, now: () => new Date() });
  } finally {
    await store.close();
  }
}

export const dataDirOption = (cmd: Command) => cmd.option('--data-dir <dir>', 'the data dir (default: FACET_DATA_DIR or the OS data dir)');

/**
 * `serve` has its own --data-dir, and commander gives an option to the first command that knows
 * it, so `facet serve users list --data-dir X` lands on `serve`: read it from the whole chain.
 */
export function dataDirOf(cmd: Command): string | undefined {
  return (cmd.optsWithGlobals() as { dataDir?: string }).dataDir;
}
