import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import type { Transport } from '../../../client/transport.js';

/** Reads, checks, then applies a fixtures file through a transport; one line per step on stderr. */
export async function seed(file: string, transport: Transport, deps: Deps) {
  const [{ readFixtures }, { applyFixtures }] = await Promise.all([
    import('../../fixtures/file.js'),
    import('../../fixtures/apply.js'),
  ]);
  const fixtures = await readFixtures(file);
  const io = deps.io();
  return applyFixtures(fixtures, transport, deps.env, (step) =>
    io.info(`seeded ${step.name}: ${step.method} ${step.path} → ${step.status}`),
  );
}

export function register(serve: Command, deps: Deps): void {
  serve
    .command('seed')
    .argument('<file>', 'the fixtures file (JSON): named API calls, later ones referring to earlier results')
    .description("Apply a fixtures file through the API of a running platform (the profile's base URL)")
    .addHelpText(
      'after',
      `
File format (README "Fixtures"):
  {"fixtures": [
    {"name": "proj", "method": "POST", "path": "/v2/projects", "params": {"name": "demo"}},
    {"name": "doc",  "method": "POST", "path": "/v2/livedocs", "params": {"project_id": "\${proj:data.id}"}}
  ]}

Examples:
  $ facet serve seed fixtures.json
  $ facet --base-url http://127.0.0.1:8787 serve seed fixtures.json --json | jq '.[].name'`,
    )
    .action(async (file: string) => {
      const applied = await seed(file, (await deps.api()).transport, deps);
      const io = deps.io();
      io.print(applied, () =>
        io.success(`applied ${applied.length} fixture${applied.length === 1 ? '' : 's'} from ${file}`),
      );
    });
}
