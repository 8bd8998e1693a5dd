import type { Deps } from '../deps.js';

/** A word as a shell reads it back: quoted only when it must be. */
const shellWord = (w: string) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);

/**
 * A `facet …` command for a hint (resume, follow, retry) with the global flags that chose the
 * platform in effect, so it runs as printed: `facet --profile two ask …` resumes on profile two.
 */
export function facetCommand(deps: Deps, rest: string): string {
  const g = deps.globals();
  const flags: string[] = [];
  if (g.profile) flags.push('--profile', shellWord(g.profile));
  if (g.baseUrl) flags.push('--base-url', shellWord(g.baseUrl));
  return ['facet', ...flags, rest].join(' ');
}
