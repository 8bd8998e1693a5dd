/**
 * The options a command's help text lists, as a README quotes it in a code block (`semver -h`):
 * an option line (`-r --range <range>`) over its description, indented further. Each is a
 * definition a question can ask about ("What does -p do?"), as a man page's options are.
 */
export interface HelpOption {
  term: string;
  description: string;
}

/** A line naming an option (`-p`, `--rtl`, `-n <0|1|false>`): a flag and a few words, no sentence. */
const OPTION_LINE = /^--?[\p{L}\p{N}][^\s]*(?:\s+\S+){0,4}$/u;

/** An option line with its description beside it: flags (with an argument), two spaces or more, words. */
const OPTION_BESIDE =
  /^(\s*--?[\p{L}\p{N}][^\s]*(?:,?\s--?[\p{L}\p{N}][^\s]*)*(?:[ =]<[^>]+>|[ =]\[[^\]]+\])?)\s{2,}(\p{L}.*)$/u;

const indentOf = (line: string) => line.length - line.trimStart().length;

/** The options of a help text, in order; none unless it lists two or more. */
export function helpOptions(code: string): HelpOption[] {
  const lines = code.split('\n');
  const out: HelpOption[] = [];
  for (let i = 0; i < lines.length; i++) {
    // Or the option and its description side by side, a gap of spaces apart (`-i --interactive   Ask…`),
    // the description going on under itself.
    const beside = OPTION_BESIDE.exec(lines[i]);
    if (beside) {
      const column = lines[i].length - beside[2].length;
      const description = [beside[2].trim()];
      for (let j = i + 1; j < lines.length && lines[j].trim() && indentOf(lines[j]) >= column; j++)
        description.push(lines[j].trim());
      out.push({ term: beside[1].trim(), description: description.join(' ') });
      continue;
    }
    const term = lines[i].trim();
    if (!OPTION_LINE.test(term) || term.length > 60) continue;
    const description: string[] = [];
    for (let j = i + 1; j < lines.length && lines[j].trim() && indentOf(lines[j]) >= indentOf(lines[i]) + 2; j++)
      description.push(lines[j].trim());
    if (description.length > 0) out.push({ term, description: description.join(' ') });
  }
  return out.length >= 2 ? out : [];
}
