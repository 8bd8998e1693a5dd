import envPaths from 'env-paths';

/** --data-dir, else FACET_DATA_DIR, else the OS data directory (XDG on Linux). */
export function resolveDataDir(given?: string): string {
  return given ?? process.env.FACET_DATA_DIR ?? envPaths('facet', { suffix: '' }).data;
}
