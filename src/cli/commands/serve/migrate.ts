import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { CliError, usageError } from '../../exit-codes.js';
import { addObjectStoreOptions, objectStoreOptions, type ObjectStoreFlags } from './object-store-options.js';

interface MigrateOptions extends ObjectStoreFlags {
  from: string;
  to: string;
  copyFilesTo?: string;
}

/** `facet serve migrate`: a SQLite data dir's records into PostgreSQL, and its files into a shared directory. */
export async function run(opts: MigrateOptions, deps: Deps): Promise<void> {
  const source = path.join(opts.from, 'facet.db');
  if (!existsSync(source))
    throw usageError(`${opts.from} has no facet.db: --from takes the data dir of a facet serve that used SQLite`);
  if (!/^postgres(ql)?:\/\//.test(opts.to)) throw usageError('--to takes a postgres:// URL of an empty database');
  const objectStore = objectStoreOptions(opts, deps.env);
  if (objectStore && opts.copyFilesTo)
    throw usageError('give --copy-files-to DIR or --object-store s3://…, not both: the files go to one place');
  // The source's own lock: a server still writing it would make the copy stale the moment it ends.
  const { lockDataDir } = await import('../../../server/data-dir-lock.js');
  let release: () => void;
  try {
    release = lockDataDir(opts.from);
  } catch (err) {
    throw new CliError(
      `migrate refused: ${(err as Error).message}`,
      undefined,
      'stop that server, then migrate: the copy must be of records no server is changing',
    );
  }
  try {
    await migrate(opts, deps, source, objectStore);
  } finally {
    release();
  }
}

async function migrate(
  opts: MigrateOptions,
  deps: Deps,
  source: string,
  objectStore: ReturnType<typeof objectStoreOptions>,
): Promise<void> {
  const io = deps.io();
  // A store that cannot be reached or signed for stops here, before any record is copied.
  let store: import('../../../server/files/file-store.js').FileStore | undefined;
  if (objectStore) {
    const { openFileStore } = await import('../../../server/files/open-file-store.js');
    try {
      store = await openFileStore(path.join(opts.from, 'files'), objectStore);
      await store.identity();
    } catch (err) {
      throw usageError(`--object-store: ${(err as Error).message}`);
    }
  }
  const [{ copySqliteToPostgres }, { copyFilesDir, copyFilesToStore }, { redactDatabaseUrl }] = await Promise.all([
    import('../../../server/store/copy-store.js'),
    import('../../../server/files/copy-files.js'),
    import('../../../server/store/postgres.js'),
  ]);
  let tables;
  try {
    tables = await copySqliteToPostgres(source, opts.to, (t) => io.info(`copied ${t.table}: ${t.rows} row(s)`));
  } catch (err) {
    throw new CliError(
      `migrate failed: ${(err as Error).message}`,
      undefined,
      'nothing in the source changed; fix the cause and run it again on an empty database',
    );
  }
  let files = opts.copyFilesTo ? copyFilesDir(path.join(opts.from, 'files'), opts.copyFilesTo) : null;
  if (store) {
    try {
      files = await copyFilesToStore(path.join(opts.from, 'files'), store);
    } catch (err) {
      throw new CliError(
        `migrate copied the records but not the files: ${(err as Error).message}`,
        undefined,
        'the source is unchanged; fix the cause and run it again on an empty database',
      );
    }
  }
  const filesTo = store ? store.location : opts.copyFilesTo;
  const startWith = store
    ? `--object-store ${objectStore!.objectStore} --data-dir NEW_DIR`
    : files
      ? `--files-dir ${opts.copyFilesTo} --data-dir NEW_DIR`
      : `--data-dir ${opts.from}`;
  const rows = tables.reduce((n, t) => n + t.rows, 0);
  io.print({ tables, rows, files, to: redactDatabaseUrl(opts.to) }, () => {
    io.success(`copied ${rows} record(s) in ${tables.length} tables into ${redactDatabaseUrl(opts.to)}; counts match`);
    if (files)
      io.success(`copied ${files.files} file(s), ${files.bytes} bytes, into ${filesTo}; counts and sizes match`);
    io.info(
      `start it with: facet serve --database-url ${redactDatabaseUrl(opts.to)} ${startWith} (the source data dir was not changed)`,
    );
  });
}

export function register(serve: Command, deps: Deps): void {
  const migrate = serve.command('migrate');
  addObjectStoreOptions(
    migrate,
    'also copy the files (uploads, task outputs) into an S3-compatible object store, which the new instances share (their --object-store)',
  );
  migrate
    .description(
      'Copy a SQLite data dir into PostgreSQL (records, counts checked) and, with --copy-files-to or --object-store, its files; the source is left untouched',
    )
    .requiredOption('--from <data-dir>', 'the data dir of a facet serve on SQLite')
    .requiredOption('--to <postgres-url>', 'an empty PostgreSQL database, postgres://USER:PASSWORD@HOST:PORT/DB')
    .option(
      '--copy-files-to <dir>',
      'also copy the files (uploads, task outputs) into this directory, which the new instances share (their --files-dir)',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet serve migrate --from ~/.local/share/facet --to postgres://facet:secret@db:5432/facet --copy-files-to /srv/facet/files\n  $ facet serve migrate --from ./data --to postgres://facet@db/facet --object-store s3://facet-files --s3-endpoint http://minio:9000',
    )
    // `facet serve` has the same object-store options: given after `migrate`, commander hands them to it.
    .action((opts: MigrateOptions, cmd: Command) => run({ ...cmd.optsWithGlobals<ObjectStoreFlags>(), ...opts }, deps));
}
