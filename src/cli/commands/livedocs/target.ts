import type { Deps } from '../../deps.js';
import { usageError } from '../../exit-codes.js';

/**
 * The LiveDoc a resources verb works on: --livedoc, else the first argument, else FACET_LIVEDOC.
 * Returns it with the remaining arguments, checking that `need` of them are left.
 */
export function target(
  args: string[],
  opts: { livedoc?: string },
  deps: Deps,
  need: string[],
): { livedoc: string; rest: string[] } {
  let livedoc = opts.livedoc;
  let rest = args;
  if (!livedoc && args.length > need.length) {
    livedoc = args[0];
    rest = args.slice(1);
  }
  livedoc ??= deps.env.FACET_LIVEDOC;
  if (!livedoc)
    throw usageError(
      'which LiveDoc? give its id as the first argument or with --livedoc',
      'facet livedocs list shows the ids',
    );
  if (rest.length < need.length) throw usageError(`missing ${need.slice(rest.length).join(' and ')}`);
  if (rest.length > need.length) throw usageError(`too many arguments: ${rest.slice(need.length).join(' ')}`);
  return { livedoc, rest };
}

export const LIVEDOC_OPTION = ['--livedoc <id>', 'the LiveDoc (default: first argument, or FACET_LIVEDOC)'] as const;
