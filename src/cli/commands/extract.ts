import { writeFile } from 'node:fs/promises';
import { Option, type Command } from 'commander';
import type { Deps } from '../deps.js';
import { collect, intOption } from '../io/parse.js';
import { usageError } from '../exit-codes.js';

export interface ExtractOptions {
  format: 'html' | 'text' | 'markdown';
  mode: 'fast' | 'fine';
  readability?: boolean;
  strict?: boolean;
  selector?: string;
  waitFor?: string;
  cookie?: string[];
  userAgent?: string;
  timeout?: number;
  links?: boolean;
  images?: boolean;
  ignoreEmptyImages?: boolean;
  stypes?: boolean;
  cache: boolean;
  out?: string;
}

/** An option of fixed values (completion offers them) refused in our own words. */
function choiceOption(flags: string, description: string, values: readonly string[], fallback: string): Option {
  const name = flags.split(' ')[0];
  return new Option(flags, description)
    .choices(values)
    .argParser((v: string) => {
      if (!values.includes(v))
        throw usageError(`${name} must be one of ${values.join(', ')} (got ${JSON.stringify(v)})`);
      return v;
    })
    .default(fallback);
}

/** What the server allows a page by default (load-page.ts): a browser load 30 s, a plain fetch 15 s. */
const SERVER_DEFAULT_MS = { fine: 30_000, fast: 15_000 } as const;
/** Beyond the page's own limit: starting Chromium, shaping the page, the round trip. */
const MARGIN_MS = 15_000;

/**
 * The server answers a page that never loads (or a --wait-for that never matches) with
 * WEB_EXTRACT_FAILED once its own limit passes; the CLI waits that long plus a margin, so
 * the user sees the server's reason instead of a client timeout of its own.
 */
export function serverLimitMs(opts: Pick<ExtractOptions, 'mode' | 'waitFor' | 'timeout'>): number {
  return opts.timeout ?? SERVER_DEFAULT_MS[opts.waitFor || opts.mode === 'fine' ? 'fine' : 'fast'];
}

export async function run(url: string, opts: ExtractOptions, deps: Deps): Promise<void> {
  // The server refuses anything but an absolute http(s) URL; a typo is the caller's (exit 2).
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw usageError(`not an http or https URL: ${url}`);
  for (const c of opts.cookie ?? [])
    if (!/^[^=;\s]+=[^;\r\n]*$/.test(c)) throw usageError(`--cookie ${JSON.stringify(c)}: expected NAME=VALUE`);
  const api = await deps.api('web');
  const io = deps.io();
  const data = await api.web.extract(
    {
      url,
      crawl_mode: opts.mode,
      output_format: opts.format,
      ...(opts.strict ? { with_readability: 'strict' as const } : opts.readability ? { with_readability: true } : {}),
      ...(opts.selector ? { target_selector: opts.selector } : {}),
      ...(opts.waitFor ? { wait_for_selector: opts.waitFor } : {}),
      ...(opts.cookie?.length ? { set_cookies: opts.cookie } : {}),
      ...(opts.userAgent ? { user_agent: opts.userAgent } : {}),
      ...(opts.timeout ? { timeout: opts.timeout } : {}),
      ...(opts.links ? { with_links: true, with_links_summary: true } : {}),
      ...(opts.images ? { with_images: true, with_images_summary: true } : {}),
      ...(opts.ignoreEmptyImages ? { ignore_empty_text_image: true } : {}),
      ...(opts.stypes ? { with_stypes: true } : {}),
      with_cache: opts.cache,
    },
    { timeoutMs: serverLimitMs(opts) + MARGIN_MS, serverLimitMs: serverLimitMs(opts) },
  );
  for (const w of data.warnings) io.warn(w);
  const content = typeof data.content === 'string' ? data.content : JSON.stringify(data.content, null, 2);
  if (opts.out) {
    await writeFile(
      opts.out,
      io.json ? JSON.stringify(data, null, 2) + '\n' : content.endsWith('\n') ? content : content + '\n',
    );
    io.info(`wrote ${opts.out}${data.cached ? ' (from the cache)' : ''}`);
    return;
  }
  io.print(data, () => {
    io.write(content.endsWith('\n') ? content : content + '\n');
    if (data.links?.length) {
      io.write('\n' + io.c.bold('Links') + '\n');
      for (const l of data.links) io.write(`- ${l.text || '(no text)'}: ${l.url}\n`);
    }
    if (data.images?.length) {
      io.write('\n' + io.c.bold('Images') + '\n');
      for (const i of data.images) io.write(`- ${i.alt || i.title || '(no text)'}: ${i.url}\n`);
    }
  });
}

export function register(program: Command, deps: Deps): void {
  program
    .command('extract')
    .argument('<url>', 'the page to extract (http or https)')
    .description('Extract one web page as Markdown (default), text or HTML; --json prints the whole data')
    .addOption(choiceOption('--format <format>', 'html, text or markdown', ['html', 'text', 'markdown'], 'markdown'))
    .addOption(
      choiceOption('--mode <mode>', 'fast (HTTP fetch) or fine (Chromium runs the scripts)', ['fast', 'fine'], 'fast'),
    )
    .option(
      '--readability',
      'main content only (falls back to the whole page, with a warning, when too little is kept)',
    )
    .option('--strict', 'with --readability: fail instead of falling back')
    .option('--selector <css>', 'extract only the element this CSS selector matches')
    .option('--wait-for <css>', 'load in Chromium and wait until this CSS selector matches')
    .option('--cookie <name=value>', 'send this cookie; repeatable (the result is never cached)', collect)
    .option('--user-agent <ua>', 'User-Agent to fetch with')
    .option(
      '--timeout <ms>',
      'give up on the page after this many milliseconds (1000-120000)',
      intOption(1000, 120_000),
    )
    .option('--links', 'list the links (with a summary)')
    .option('--images', 'list the images (with a summary)')
    .option('--ignore-empty-images', 'with --images: drop images without alt or title text')
    .option('--stypes', 'include the structured-data types the page declares')
    .option('--no-cache', 'fetch the page now instead of using a cached extraction')
    .option('--out <file>', 'write the content (the data with --json) to FILE')
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet extract https://example.com/article --readability\n  $ facet extract https://example.com --format text --selector main\n  $ facet extract https://example.com/app --mode fine --wait-for "#content" --json',
    )
    .action((url: string, opts: ExtractOptions) => run(url, opts, deps));
}
