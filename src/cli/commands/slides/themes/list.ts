import { Option, type Command } from 'commander';
import type { Deps } from '../../../deps.js';
import { pagingFlags, readV2Pages, type PageFlags } from '../../../v2-paging.js';

export interface ThemesOptions extends PageFlags {
  lang?: 'en' | 'zh-Hans';
  type?: 'default' | 'custom';
  keyword?: string;
}

export async function run(opts: ThemesOptions, deps: Deps): Promise<void> {
  const api = await deps.api('slides');
  const page = await readV2Pages(deps, opts, (n, size) =>
    api.slides.themes({ lang: opts.lang, type: opts.type, keyword: opts.keyword, page: n, size }),
  );
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
  });
}

export function register(parent: Command, deps: Deps): void {
  pagingFlags(
    parent
      .command('list', { isDefault: true })
      .alias('ls')
      .description('List slide themes: the default ones and your own (the default action)')
      .addOption(new Option('--lang <lang>', 'language of titles and descriptions').choices(['en', 'zh-Hans']))
      .addOption(new Option('--type <type>', 'only default or only your custom themes').choices(['default', 'custom']))
      .option('--keyword <text>', 'only themes whose title contains this'),
    'themes',
  )
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet slides themes\n  $ facet slides themes list --type custom\n  $ facet slides themes --lang zh-Hans --keyword 蓝\n  $ facet slides themes --json | jq -r ".items[].id"',
    )
    .action((opts: ThemesOptions) => run(opts, deps));
}
