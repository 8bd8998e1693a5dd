import { constants, createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { Argument, type Command } from 'commander';
import type { Deps } from '../../deps.js';
import { CliError, EXIT, usageError } from '../../exit-codes.js';
import { dataDirOf, dataDirOption, withStore } from './offline.js';

/**
 * `facet serve data import FAMILY FILE`: fixtures of your own for the beta data endpoints' local
 * provider. Each subject in the file (a backlinks target, a ticker) gets exactly the file's rows,
 * replacing what the provider would generate for it; other subjects are untouched.
 */
export function register(serve: Command, deps: Deps): void {
  const data = serve
    .command('data')
    .description("Data of the beta endpoints' local provider (offline, on the data dir)");
  dataDirOption(
    data
      .command('import')
      .addArgument(
        new Argument('<family>', 'backlinks, income (income statements) or insiders (insider trades)').choices([
          'backlinks',
          'income',
          'insiders',
        ]),
      )
      .argument('<file>', 'a .csv (header row) or .jsonl/.ndjson file, one record per row')
      .description('Import rows that replace the generated data of their target or ticker')
      .addHelpText(
        'after',
        '\nRecords: backlinks need target, url_from, url_to (any backlink field may follow);\nincome and insiders need every field of an income statement or insider trade.\n\nExamples:\n  $ facet serve data import backlinks links.csv\n  $ facet serve data import income statements.jsonl --data-dir ./platform',
      ),
  ).action(async (family: 'backlinks' | 'income' | 'insiders', file: string, _opts: unknown, cmd: Command) => {
    const [{ checkImportName, ImportError }, { importFile }] = await Promise.all([
      import('../../../server/providers/beta/import/read-records.js'),
      import('../../../server/providers/beta/import/import-file.js'),
    ]);
    try {
      checkImportName(file);
      await access(file, constants.R_OK);
    } catch (err) {
      if (err instanceof ImportError) throw usageError(`${file}: ${err.message}`);
      throw new CliError(
        `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
        EXIT.notFound,
      );
    }
    let imported: { subjects: string[]; rows: number };
    try {
      // The file is streamed record by record into the store: it never sits in memory whole.
      imported = await withStore(dataDirOf(cmd), (ctx) => importFile(ctx.db, family, file, createReadStream(file)));
    } catch (err) {
      if (err instanceof ImportError) throw usageError(`${file}: ${err.message}`);
      throw err;
    }
    const result = { family, ...imported };
    const io = deps.io();
    io.print(result, () => io.success(`imported ${result.rows} ${family} rows for ${result.subjects.join(', ')}`));
  });
}
