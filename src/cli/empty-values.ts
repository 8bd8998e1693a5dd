import type { Command } from 'commander';
import { usageError } from './exit-codes.js';

/** Free-text options where an empty value means something (an empty description, snippet, …). */
const MAY_BE_EMPTY = new Set(['description', 'snippet', 'thumbnail', 'content', 'text', 'system', 'subtitle']);

const blank = (v: unknown) => typeof v === 'string' && v.trim() === '';

/**
 * An empty or blank argument (`chat ""`, `livedocs get ""`) or option value (`keys create --name ""`)
 * is the caller's mistake: a usage error (exit 2) before anything is sent, not the server's 400/422
 * (exit 1). `facet serve`'s own options are left alone: some take "" to turn a setting off.
 */
export function refuseEmptyValues(cmd: Command): void {
  cmd.registeredArguments.forEach((arg, i) => {
    const value: unknown = cmd.processedArgs[i];
    if (blank(value) || (Array.isArray(value) && value.some(blank)))
      throw usageError(`<${arg.name()}> must not be empty`);
  });
  if (cmd.name() === 'serve' && cmd.parent?.parent === null) return;
  const opts = cmd.opts<Record<string, unknown>>();
  for (const opt of cmd.options) {
    const value = opts[opt.attributeName()];
    if (!(blank(value) || (Array.isArray(value) && value.some(blank)))) continue;
    if (!MAY_BE_EMPTY.has(opt.attributeName()) && !MAY_BE_EMPTY.has(opt.long?.slice(2) ?? ''))
      throw usageError(`${opt.long ?? opt.short} must not be empty`);
  }
}
