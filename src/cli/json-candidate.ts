import type { Command, Option } from 'commander';

function findOption(cmd: Command | null, flag: string): Option | undefined {
  for (let c = cmd; c; c = c.parent) {
    const o = c.options.find((opt) => opt.long === flag || opt.short === flag);
    if (o) return o;
  }
  return undefined;
}

/**
 * What commander's argument slots cannot say, for settling `--json WORD`: how many words a
 * variadic command takes at most (`resources get <ids...>` takes LIVEDOC RESOURCE), how many it
 * needs when an environment variable gives the first (FACET_LIVEDOC), and what an argument looks
 * like (a post id is digits: `social replies 123 --json id` selects a field).
 */
export interface ArgumentShape {
  max?: number;
  /** With this variable set, the first argument may be left out: `min` words are enough. */
  env?: string;
  min?: number;
  pattern?: RegExp;
}

const SHAPES = new WeakMap<Command, ArgumentShape>();

export function argumentShape<C extends Command>(cmd: C, shape: ArgumentShape): C {
  SHAPES.set(cmd, shape);
  return cmd;
}

/**
 * Settles `--json WORD` (a lone word, see io/json-shape.ts) by the command tree, as gh's
 * `--json id` reads: WORD is a field list unless it names a command or the command still has a
 * free argument slot for it. So `livedocs list --json short_id` and `facet --json id keys list`
 * select a field, while `keys delete --json KEY_ID` keeps its argument (`--json=id` is always a
 * field list).
 */
export function candidateIsField(
  program: Command,
  args: string[],
  candidate: number,
  env: NodeJS.ProcessEnv = {},
): boolean {
  let cmd = program;
  const operands: number[] = [];
  // Where the command was when WORD came: before the last subcommand, WORD can be no argument of it.
  let candidateAt: Command | undefined;
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
    if (i === candidate) candidateAt = cmd;
    else operands.push(i);
  }
  if (!candidateAt) return false;
  if (candidateAt !== cmd) return true;
  const shape = SHAPES.get(cmd) ?? {};
  if (shape.pattern && !shape.pattern.test(args[candidate])) return true;
  const slots = cmd.registeredArguments;
  const max = shape.max ?? (slots.some((s) => s.variadic) ? Infinity : slots.length);
  const enough = shape.env && env[shape.env] ? (shape.min ?? max - 1) : max;
  return operands.length >= enough;
}
