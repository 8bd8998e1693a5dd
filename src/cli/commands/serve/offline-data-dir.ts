import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { usageError } from '../../exit-codes.js';
import { ConfigStore } from '../../config/profiles.js';

/** The pid in a data dir's serve.pid when that process is alive: a server is using the dir. */
function serverRunningOn(dataDir: string): boolean {
  try {
    const pid = Number(readFileSync(path.join(dataDir, 'serve.pid'), 'utf8').trim());
    if (!(pid > 0)) return false;
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: alive, another user's.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Where the records are: a PostgreSQL URL when one is given, else the data dir's SQLite file. */
export interface StoreLocation {
  dataDir?: string;
  databaseUrl?: string;
  /** --create: a data dir without records may be started. */
  create?: boolean;
  quiet?: boolean;
}

/**
 * The data dir an offline verb works on: --data-dir, else FACET_DATA_DIR, else the data dir of the
 * `local` profile's server while it runs (`facet serve` records it there), else the OS data dir.
 * One not given by flag or env is named on stderr; one without records (no facet.db) is refused
 * unless --create, so a user is never made in a database no server reads.
 */
export function offlineDataDir(where: StoreLocation, resolveDataDir: (given?: string) => string): string {
  let dir: string;
  let source: string | undefined;
  if (where.dataDir || process.env.FACET_DATA_DIR) dir = resolveDataDir(where.dataDir);
  else {
    const recorded = new ConfigStore(process.env.FACET_CONFIG_DIR || undefined).profile('local')?.data_dir;
    if (recorded && serverRunningOn(recorded)) [dir, source] = [recorded, 'the running server of the "local" profile'];
    else [dir, source] = [resolveDataDir(), 'the OS data dir: no server of the "local" profile is running'];
  }
  if (source && !where.quiet) process.stderr.write(`using data dir ${dir} (${source})\n`);
  if (!where.create && !existsSync(path.join(dir, 'facet.db'))) {
    throw usageError(
      `no facet records in ${dir} (no facet.db)`,
      'give the data dir of your server with --data-dir (or FACET_DATA_DIR), or pass --create to start new records there',
    );
  }
  return dir;
}
