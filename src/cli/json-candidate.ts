import type { Command, Option } from 'commander';

function findOption(cmd: Command | null, flag: string): Option | undefined {
  for (let c = cmd; c; c = c.parent) {
    const o = c.options.find((opt) => opt.long === flag || opt.short === flag);
    if (o) return o;
  }
  return undefined;
}

/**
 * Settles `--json WORD` (a lone word, see io/json-shape.ts) by the command tree, as gh's
 * `--json id` reads: WORD is a field list unless it names a command or the command still has a
 * free argument slot for it. So `livedocs list --json short_id` selects a field, while
 * `keys delete --json KEY_ID` keeps its argument (`--json=id` is always a field list).
 */
export function candidateIsField(program: Command, args: string[], candidate: number): boolean {
  let cmd = program;
  const operands: number[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      for (let j = i + 1; j < args.length; j++) operands.push(j);
      break;
    }
    if (a.startsWith('-') && a !== '-') {
      const opt = a.includes('=') ? undefined : findOption(cmd, a);
      const takesNext = opt && (opt.required || (opt.optional && i + 1 < args.length && !args[i + 1].startsWith('-')));
      if (takesNext && i !== candidate - 1) i++;
      continue;
    }
    const sub = operands.length === 0 ? cmd.commands.find((c) => c.name() === a || c.aliases().includes(a)) : undefined;
    if (sub) {
      if (i === candidate) return false;
      cmd = sub;
      continue;
    }
    operands.push(i);
  }
  if (!operands.includes(candidate)) return false;
  const slots = cmd.registeredArguments;
  if (slots.some((s) => s.variadic)) return false;
  return operands.length - 1 >= slots.length;
}
