import { Argument, type Command } from 'commander';
import type { Deps } from '../deps.js';
import { LIVE_KINDS, type LiveKind } from '../completion/model.js';

/** A Tab press waits this long for the server at most (FACET_COMPLETE_TIMEOUT_MS changes it). */
const COMPLETE_TIMEOUT_MS = 1500;

/** The ids of one kind, newest first where the server orders them so; at most one page. */
async function ids(deps: Deps, kind: LiveKind): Promise<string[]> {
  if (kind === 'profiles') return Object.keys((await deps.config()).profiles());
  const api = await deps.api('tasks', 'livedocs', 'keys', 'admin', 'projects', 'slides', 'modelApi');
  switch (kind) {
    case 'tasks':
      return (await api.tasks.list({ limit: 50 })).map((t) => t.id);
    case 'livedocs':
      return (await api.livedocs.list({ size: 50 })).items.map((d) => d.short_id);
    case 'keys': {
      const settings = await deps.settings();
      if (settings.adminKey) return (await api.admin.listKeys({ limit: 100 })).keys.map((k) => k.id);
      return (await api.keys.list()).map((k) => k.id);
    }
    case 'projects':
      return (await api.projects.list()).map((p) => p.id);
    case 'themes':
      return (await api.slides.themes({ size: 100 })).items.map((t) => t.id);
    case 'models':
      return (await api.modelApi.list({})).data.map((m) => m.id);
  }
}

/**
 * `facet __complete KIND`: what the completion scripts call for ids on Tab. Quick and quiet: a
 * short timeout, one id a line, and nothing at all (exit 0) when the server cannot say.
 */
export async function run(deps: Deps, kind: LiveKind): Promise<void> {
  deps.env.FACET_TIMEOUT_MS = deps.env.FACET_COMPLETE_TIMEOUT_MS || String(COMPLETE_TIMEOUT_MS);
  const found = await ids(deps, kind).catch(() => []);
  if (found.length) deps.streams.stdout.write(found.join('\n') + '\n');
}

export function register(program: Command, deps: Deps): void {
  program
    .command('__complete', { hidden: true })
    .description('Print the ids of a kind for shell completion (used by the completion scripts)')
    .addArgument(new Argument('<kind>').choices(LIVE_KINDS))
    .action((kind: LiveKind) => run(deps, kind));
}
