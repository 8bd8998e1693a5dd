import type { ApiKeyInfo, CreatedApiKey } from '../../contract/image-auth.js';
import { cell } from '../io/cell.js';
import type { Column, IO } from '../io/output.js';

/** At 80 columns a key's id, name, status and dates of use stay; the prefix and creation go first. */
export const KEY_COLUMNS: Array<Column<ApiKeyInfo>> = [
  { header: 'ID', value: (k) => k.id, priority: 1 },
  { header: 'NAME', value: (k) => k.name, priority: 1 },
  { header: 'PREFIX', value: (k) => `${k.prefix}…`, priority: 3 },
  // One user on every row (your own keys, or an admin's --user): the terminal need not repeat it.
  { header: 'USER', value: (k) => k.user_id, priority: 2, hideWhenSame: true },
  { header: 'STATUS', value: (k) => k.status, priority: 1 },
  { header: 'CREATED', value: (k) => k.created_at, priority: 3 },
  { header: 'EXPIRES', value: (k) => k.expires_at ?? 'never', priority: 2 },
  { header: 'LAST USED', value: (k) => k.last_used_at ?? '', priority: 2 },
];

export function printKeys(io: IO, keys: ApiKeyInfo[]): void {
  io.print(keys, () => io.table(keys, KEY_COLUMNS, { empty: 'No API keys.' }));
}

export function printKey(io: IO, key: ApiKeyInfo): void {
  io.print(key, () => {
    if (!io.stdoutIsTTY) return io.write(KEY_COLUMNS.map((c) => cell(c.value(key))).join('\t') + '\n');
    io.fields(KEY_COLUMNS.map((c) => [c.header.toLowerCase(), c.value(key)]));
  });
}

/**
 * The full key is shown here and never again. Piped, stdout gets the key alone so that
 * KEY=$(facet keys create) works; the metadata goes to stderr.
 */
export function printCreatedKey(io: IO, created: CreatedApiKey): void {
  if (io.json) return io.printJson(created);
  if (io.stdoutIsTTY) {
    io.fields([
      ['id', created.id],
      ['name', created.name],
      ['user', created.user_id],
      ['expires', created.expires_at ?? 'never'],
      ['key', created.key],
    ]);
    io.warn('this is the only time the full key is shown: store it now');
    return;
  }
  io.write(created.key + '\n');
  io.info(`created key ${created.id} (${created.name}) for ${created.user_id}; the key is shown only once`);
}
