import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { CliError, usageError } from '../../exit-codes.js';

interface MigrateOptions {
  from: string;
  to: string;
  copyFilesTo?: string;
}

/** `facet serve migrate`: a SQLite data dir's records into PostgreSQL, and its files into a shared directory. */
export async function run(opts: MigrateOptions, deps: Deps): Promise<void> {
  const io = deps.io();
  const source = path.join(opts.from, 'facet.db');
  if (!existsSync(source)) throw usageError(`${opts.from} has no facet.db: --from takes the data dir of a facet serve that used SQLite`);
  if (!/^postgres(ql)?:\/\//.test(opts.to)) throw usageError('--to takes a postgres:// URL of an empty database');
  const [{ copySqliteToPostgres }, { copyFilesDir }, { redactDatabaseUrl }] = await Promise.all([
    import('../../../server/store/copy-store.js'),
    import('../../../server/files/copy-files.js'),
    import('../../../server/store/postgres.js'),
  ]);
  let tables;
  try {
    tables = await copySqliteToPostgres(source, opts.to, (t) => io.info(`copied ${t.table}: ${t.rows} row(s)`));
  } catch (err) {
    throw new CliError(`migrate failed: ${(err as Error).message}`, undefined, 'nothing in the source changed; fix the cause and run it again on an empty database');
  }
  const files = opts.copyFilesTo ? copyFilesDir(path.join(opts.from, 'files'), opts.copyFilesTo) : null;
  const rows = tables.reduce((n, t) => n + t.rows, 0);
  io.print({ tables, rows, files, to: redactDatabaseUrl(opts.to) }, () => {
    io.success(`copied ${rows} record(s) in ${tables.length} tables into ${redactDatabaseUrl(opts.to)}; counts match`);
    if (files) io.success(`copied ${files.files} file(s), ${files.bytes} bytes, into ${opts.copyFilesTo}`);
    io.info(
      `start it with: facet serve --database-url ${redactDatabaseUrl(opts.to)} ${files ? `--files-dir ${opts.copyFilesTo} --data-dir NEW_DIR` : `--data-dir ${opts.from}`} (the source data dir was not changed)`,
    );
  });
}

export function register(serve: Command, deps: Deps): void {
  serve
    .command('migrate')
    .description('Copy a SQLite data dir into PostgreSQL (records, counts checked) and, with --files-dir, its files; the source is left untouched')
    .requiredOption('--from <data-dir>', 'the data dir of a facet serve on SQLite')
    .requiredOption('--to <postgres-url>', 'an empty PostgreSQL database, postgres://USER:PASSWORD@HOST:PORT/DB')
    .option('--copy-files-to <dir>', 'also copy the files (uploads, task outputs) into this directory, which the new instances share (their --files-dir)')
    .addHelpText('after', '\nExamples:\n  $ facet serve migrate --from ~/.local/share/facet --to postgres://facet:secret@db:5432/facet --copy-files-to /srv/facet/files')
    .action((opts: MigrateOptions) => run(opts, deps));
}
