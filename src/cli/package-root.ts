import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The installed package's folder, found from any bundled chunk by walking up to package.json. */
export function packageRoot(from = import.meta.url): string {
  let dir = path.dirname(fileURLToPath(from));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('cannot find the facet package folder');
    dir = up;
  }
  return dir;
}
