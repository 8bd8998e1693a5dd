import type { Command } from 'commander';
import type { Deps } from '../../../deps.js';
import { printKey } from '../../../render/keys.js';

/** freeze and unfreeze are one verb pair: same input, same output, opposite effect. */
export async function run(keyId: string, frozen: boolean, deps: Deps): Promise<void> {
  const api = await deps.api('admin');
  const key = frozen ? await api.admin.freeze(keyId) : await api.admin.unfreeze(keyId);
  const io = deps.io();
  if (!io.json) io.success(`${frozen ? 'froze' : 'unfroze'} key ${key.id} (${key.name})`);
  printKey(io, key);
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('freeze')
    .argument('<key-id>', 'the key id (key_…)')
    .description('Freeze a key: every surface refuses it with 403 KEY_FROZEN until it is unfrozen')
    .action((keyId: string) => run(keyId, true, deps));
  parent
    .command('unfreeze')
    .argument('<key-id>', 'the key id (key_…)')
    .description('Unfreeze a key')
    .action((keyId: string) => run(keyId, false, deps));
}
