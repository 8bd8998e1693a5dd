import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const NAME = '.facet-files-id';

/**
 * The identity of a files directory: a random id kept in a file inside it, made by the first
 * instance that uses the directory (exclusive create, so two starting together agree). Instances that
 * see the same id share the directory; instances on one database with different ids do not.
 */
export function filesDirIdentity(filesDir: string): string {
  const file = path.join(filesDir, NAME);
  try {
    writeFileSync(file, `${randomBytes(12).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return readFileSync(file, 'utf8').trim();
}
