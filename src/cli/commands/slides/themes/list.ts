import { Option, type Command } from 'commander';
import type { Deps } from '../../../deps.js';
import { intOption } from '../../../io/parse.js';

export interface ThemesOptions {
  lang?: 'en' | 'zh-Hans';
  type?: 'default' | 'custom';
  keyword?: string;
  page?: number;
  size?: number;
}

export async function run(opts: ThemesOptions, deps: Deps): Promise<void> {
  const api = await deps.api('slides');
  const page = await api.slides.themes({
    lang: opts.lang,
    type: opts.type,
    keyword: opts.keyword,
    page: opts.page,
    size: opts.size,
  });
  const io = deps.io();
  io.print(page, () => {
    io.table(
      page.items,
      [
        { header: 'ID', value: (t) => t.id },
        { header: 'TYPE', value: (t) => t.type },
        { header: 'TITLE', value: (t) => t.title },
        { header: 'SUBTITLE', value: (t) => t.subtitle },
        {
          header: 'FONTS',
          value: (t) => (t.fonts.heading === t.fonts.body ? t.fonts.heading : `${t.fonts.heading} / ${t.fonts.body}`),
        },
      ],
      { empty: 'No themes match.' },
    );
    if (page.total > page.page * page.size)
      io.info(`page ${page.page}, ${page.items.length} of ${page.total} (--page ${page.page + 1} for more)`);
  });
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('list', { isDefault: true })
    .alias('ls')
    .description('List slide themes: the default ones and your own (the default action)')
    .addOption(new Option('--lang <lang>', 'language of titles and descriptions').choices(['en', 'zh-Hans']))
    .addOption(new Option('--type <type>', 'only default or only your custom themes').choices(['default', 'custom']))
    .option('--keyword <text>', 'only themes whose title contains this')
    .option('--page <n>', 'page, from 1', intOption(1, 100_000))
    .option('--size <n>', 'items per page (1-100, default 20)', intOption(1, 100))
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet slides themes\n  $ facet slides themes list --type custom\n  $ facet slides themes --lang zh-Hans --keyword 蓝\n  $ facet slides themes --json | jq -r ".items[].id"',
    )
    .action((opts: ThemesOptions) => run(opts, deps));
}
