import { Option, type Command } from 'commander';
import type { Deps } from './deps.js';
import { usageError } from './exit-codes.js';
import { intOption } from './io/parse.js';

/**
 * The one paging vocabulary of the CLI's lists (docs/decisions.md): `--limit N` records per page,
 * `--cursor C` from where an earlier page stopped, `--all` every page. Over a /v2 page
 * (`{page, size, total, items}`) the cursor is `PAGE:SIZE` (the page to read next and its size).
 * The older `--page`/`--size` stay as hidden aliases.
 */
export interface PageFlags {
  limit?: number;
  cursor?: string;
  all?: boolean;
  page?: number;
  size?: number;
}

export interface V2Page<T> {
  page: number;
  size: number;
  total: number;
  items: T[];
}

export function pagingFlags(cmd: Command, noun = 'items', max = 100): Command {
  return cmd
    .option('--limit <n>', `${noun} per page (1-${max}, default 20)`, intOption(1, max))
    .option('--cursor <cursor>', 'continue where an earlier page stopped (its "more:" line names the cursor)')
    .option('--all', 'every page')
    .addOption(new Option('--page <n>', 'page, from 1 (as --cursor)').argParser(intOption(1, 100_000)).hideHelp())
    .addOption(new Option('--size <n>', 'as --limit').argParser(intOption(1, max)).hideHelp());
}

function parseCursor(cursor: string): { page: number; size: number } {
  const m = /^(\d{1,6}):(\d{1,3})$/.exec(cursor);
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1)
    throw usageError(`not a cursor of this list: "${cursor}"`, 'use the cursor a "more:" line printed');
  return { page: Number(m[1]), size: Number(m[2]) };
}

/**
 * Reads the pages the flags ask for; with --all every page, merged into one /v2 page (page 1, its
 * size, the total, every item) so `--json | jq .items` reads the same. Where more pages remain,
 * a "more:" line on stderr names the cursor that continues.
 */
export async function readV2Pages<T>(
  deps: Deps,
  flags: PageFlags,
  fetch: (page: number, size: number | undefined) => Promise<V2Page<T>>,
): Promise<V2Page<T>> {
  const from = flags.cursor ? parseCursor(flags.cursor) : undefined;
  let page = from?.page ?? flags.page ?? 1;
  const size = flags.limit ?? flags.size ?? from?.size ?? (flags.all ? 100 : undefined);
  const first = await fetch(page, size);
  const merged: V2Page<T> = { ...first, items: [...first.items] };
  let last = first;
  while (flags.all && last.page * last.size < last.total && last.items.length > 0) {
    last = await fetch(++page, last.size);
    merged.items.push(...last.items);
  }
  if (last.page * last.size < last.total && last.items.length > 0)
    deps
      .io()
      .info(
        `more: --cursor ${last.page + 1}:${last.size} for the next page, or --all (${merged.items.length} of ${last.total} shown)`,
      );
  return merged;
}
