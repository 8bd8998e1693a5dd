import { setTimeout as sleep } from 'node:timers/promises';
import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { intOption } from '../../io/parse.js';
import { CliError, EXIT } from '../../exit-codes.js';

export interface ChatOptions {
  retry?: boolean;
  maxRetries: number;
  verbose?: boolean;
  includeGenerated?: boolean;
}

type RateLimit = import('../../../client/chat.js').RateLimitState;

function describeLimit(r: RateLimit, now: Date): string {
  const resetIn = r.reset !== null ? Math.max(0, r.reset - Math.floor(now.getTime() / 1000)) : null;
  return `rate limit: ${r.remaining ?? '?'} of ${r.limit ?? '?'} left, resets in ${resetIn ?? '?'} s${r.retryAfter !== null ? `, retry after ${r.retryAfter} s` : ''}`;
}

export async function run(query: string, opts: ChatOptions, deps: Deps): Promise<void> {
  const api = await deps.api('chat');
  const io = deps.io();
  for (let attempt = 0; ; attempt++) {
    try {
      const { data, rateLimit } = await api.chat.ask(query, { includeGenerated: opts.includeGenerated });
      if (opts.verbose) io.info(describeLimit(rateLimit, deps.now()));
      io.print(data, () => {
        io.write(data.answer.trimEnd() + '\n');
        if (data.resources.length > 0) {
          io.write('\n' + io.c.bold('Sources') + '\n');
          data.resources.forEach((r, i) => io.write(`[${i + 1}] ${r.title}${r.link ? ` — ${r.link}` : ''}\n`));
        }
      });
      return;
    } catch (err) {
      const e = err as Error & { status?: number; rateLimit?: RateLimit; retryAfterSeconds?: number };
      if (opts.verbose && e.rateLimit) io.info(describeLimit(e.rateLimit, deps.now()));
      if (e.name !== 'ApiError' || e.status !== 429) throw err;
      const wait = e.rateLimit?.retryAfter ?? e.retryAfterSeconds ?? 1;
      if (!opts.retry || attempt >= opts.maxRetries) {
        throw new CliError(
          `${e.message} (code RATE_LIMITED, HTTP 429)`,
          EXIT.rateLimited,
          opts.retry ? `gave up after ${attempt} retries` : `try again in ${wait} s, or pass --retry to wait and retry`,
        );
      }
      io.info(`rate limited: waiting ${wait} s before retry ${attempt + 1} of ${opts.maxRetries}…`);
      await sleep(wait * 1000);
    }
  }
}

export function register(program: Command, deps: Deps): void {
  program
    .command('chat')
    .argument('<query>', 'the question (1-2000 characters)')
    .description('A search-grounded answer from your LiveDocs, with numbered sources')
    .option('--retry', 'on 429, wait for Retry-After and try again')
    .option('--max-retries <n>', 'with --retry, give up after N retries (default 3)', intOption(1, 100), 3)
    .option('--verbose', 'show the rate-limit state (X-RateLimit-*) on stderr')
    .option('--include-generated', 'also answer from decks, pages and mindmaps facet generated (left out by default)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet chat "What is our refund window?"\n  $ facet chat "Summarise the pricing page" --json | jq -r .answer\n  $ facet chat "…" --retry --verbose',
    )
    .action((query: string, opts: ChatOptions) => run(query, opts, deps));
}
