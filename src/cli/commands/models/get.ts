import type { Command } from 'commander';
import type { Deps } from '../../deps.js';

const price = (n: number | null) => (n === null ? '-' : `$${n}`);

export async function run(id: string, deps: Deps): Promise<void> {
  const api = await deps.api('modelApi');
  const m = await api.modelApi.get(id);
  const io = deps.io();
  io.print(m, () => {
    const p = m.pricing;
    io.fields([
      ['id', m.id],
      ['kind', m.model_kind],
      ['provider', m.owned_by],
      ['description', m.description ?? ''],
      ['context window', m.context_window],
      ['max output', m.max_output_tokens],
      ['surfaces', m.surfaces.join(', ')],
      [
        'price / 1M tokens',
        `input ${price(p.input)}, output ${price(p.output)}, cache read ${price(p.cache_read)}, cache write ${price(p.cache_write)}`,
      ],
      ...p.tiers.map((t): [string, unknown] => [
        `  above ${t.above_prompt_tokens} prompt tokens`,
        `input ${price(t.input)}, output ${price(t.output)}, cache read ${price(t.cache_read)}, cache write ${price(t.cache_write)}`,
      ]),
      ['web search', `$${p.web_search_per_call} per search`],
    ]);
  });
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('get')
    .argument('<id>', 'model id')
    .description("One model's kind, limits, surfaces and prices")
    .addHelpText('after', '\nExample:\n  $ facet models get lumen-flash')
    .action((id: string) => run(id, deps));
}
