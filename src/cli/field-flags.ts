import type { Command } from 'commander';

/**
 * Request fields the CLI fills from a flag of another name. A server's 400/422 names the field
 * (`ppt_config.ai_theme_id`); the person typed `--theme`.
 */
const RENAMED: Record<string, string> = {
  'ppt_config.ai_theme_id': '--theme',
  ai_theme_id: '--theme',
  'ppt_config.slide_count': '--slides',
  slide_count: '--slides',
  'ppt_config.lang': '--lang',
  livedoc_short_id: '--livedoc',
  wait_for_selector: '--wait-for',
  target_selector: '--selector',
  resource_types: '--type',
  since_time: '--since',
  until_time: '--until',
};

const snake = (flag: string) => flag.replace(/^--/, '').replace(/-/g, '_');

/** HTTP headers a message may name, said as the flag the person pages with. */
const HEADERS: Array<[RegExp, string, string]> = [
  [/\bX-Next-Cursor of the previous page\b/gi, '--cursor', 'the --cursor value the previous page printed'],
  [/\bX-Next-Cursor\b/gi, '--cursor', 'the --cursor value a page printed'],
];

/**
 * The message of a 400/422 the command's own options caused, with each request field named by the
 * flag that set it: the renamed ones above, and `body.NAME`/`query.NAME` or a snake_case NAME for a
 * `--NAME` the command has. Only flags the command has are named: `facet api` keeps the fields.
 */
export function inFlagTerms(message: string, cmd: Command | undefined): string {
  if (!cmd) return message;
  const flags = new Set(cmd.options.map((o) => o.long).filter((l): l is string => Boolean(l)));
  for (const [header, flag, said] of HEADERS) if (flags.has(flag)) message = message.replace(header, said);
  const byField = new Map<string, string>();
  for (const [field, flag] of Object.entries(RENAMED)) if (flags.has(flag)) byField.set(field, flag);
  for (const flag of flags) {
    const field = snake(flag);
    if (!byField.has(field) && (field.includes('_') || /^--[a-z]+$/.test(flag))) byField.set(field, flag);
  }
  if (byField.size === 0) return message;
  // Longest first, so `ppt_config.ai_theme_id` wins over `ai_theme_id`; a bare word without `_`
  // (`name`) only where it is plainly a field: after body./query. or before a colon.
  const fields = [...byField.keys()].sort((a, b) => b.length - a.length);
  const escaped = fields.map((f) => f.replace(/[.]/g, '\\.'));
  const re = new RegExp(`(?<![\\w.-])(?:(?:body|query)\\.)?(${escaped.join('|')})(?![\\w.])(:?)`, 'g');
  return message.replace(re, (whole, field: string, colon: string, at: number) => {
    const prefixed = whole.startsWith('body.') || whole.startsWith('query.');
    // A bare word is a field only as an issue's subject ("name: Required"), not inside prose ("a CSS selector: …").
    const subject = colon && /(^|;\s*)$/.test(message.slice(0, at));
    if (!field.includes('_') && !field.includes('.') && !prefixed && !subject) return whole;
    return byField.get(field)! + colon;
  });
}
