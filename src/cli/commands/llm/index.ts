import { Option, type Command } from 'commander';
import type { Deps } from '../../deps.js';
import { intOption, numberOption } from '../../io/parse.js';
import type { LlmOptions } from './surfaces.js';

export function register(program: Command, deps: Deps): void {
  program
    .command('llm')
    .description('Call a model through /api/v1 on one of its three surfaces')
    .argument('<model>', 'model id (see `facet models list`)')
    .argument('[prompt]', 'the prompt; read from stdin when absent or "-"')
    .addOption(
      new Option('--surface <surface>', 'which API shape to call')
        .choices(['chat', 'responses', 'messages'])
        .default('chat'),
    )
    .option('--system <text>', 'system instructions')
    .option('--temperature <t>', 'sampling temperature', numberOption(0))
    .option('--max-tokens <n>', 'most tokens in the reply (messages surface default: 1024)', intOption(1, 10_000_000))
    .option('--stream', 'print the text as it arrives')
    .option('-v, --verbose', 'print usage and cost on stderr')
    .addHelpText(
      'after',
      `
Examples:
  $ facet llm facet-echo "hello"                        # the echo model answers "hello"
  $ facet llm corvid-medium --surface messages --stream < prompt.txt     # prompt on stdin
  $ facet llm lumen-flash "Hi" --surface responses --verbose
  $ facet llm facet-grounded "What is in my docs?" --json | jq .usage`,
    )
    .action(async (model: string, prompt: string | undefined, opts: LlmOptions) => {
      const { run } = await import('./run.js');
      await run(model, prompt, opts, deps);
    });
}
