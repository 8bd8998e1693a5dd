import type { Command } from 'commander';
import type { Deps } from '../../../deps.js';
import { confirm } from '../../../io/prompt.js';

export async function run(keyId: string, deps: Deps): Promise<void> {
  await confirm(deps, `Delete API key ${keyId}? It stops working at once`);
  const api = await deps.api('admin');
  await api.admin.deleteKey(keyId);
  deps.io().print({ id: keyId, deleted: true }, () => deps.io().success(`deleted key ${keyId}`));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('delete')
    .alias('rm')
    .argument('<key-id>', 'the key id (key_…)')
    .description("Delete any user's key")
    .action((keyId: string) => run(keyId, deps));
}
