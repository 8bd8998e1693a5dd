import { runCpuJob } from '../../../engines/workers/index.js';
import { TASK_STATUS, VOLUME_LIMITS } from '../../../../contract/beta-seo.js';
import { refusedEnvelope, runEnvelope, type ProviderEnvelope, type TaskOutcome } from '../envelope.js';
import type { SeoOperation, SeoProvider } from '../seo-provider.js';
import { parseTarget } from './backlinks-data.js';

/** Where a target's imported backlinks live (the store); the worker has no store of its own. */
export interface ImportedBacklinkSource {
  /** The version of the target's current import, null when it has none (read on every request). */
  version(subject: string): Promise<string | null>;
  /** The current import's version and rows as JSON text (read only when a worker lacks them). */
  rows(subject: string): Promise<{ version: string; chunks: Uint8Array[] } | null>;
}

const NO_IMPORTS: ImportedBacklinkSource = { version: async () => null, rows: async () => null };

/** The keywords of all of a volume request's tasks, counted before any task runs (a request's work stays bounded). */
function keywordsOf(body: unknown): number {
  if (!Array.isArray(body)) return 0;
  let n = 0;
  for (const task of body) {
    const keywords = task && typeof task === 'object' ? (task as { keywords?: unknown }).keywords : undefined;
    if (Array.isArray(keywords)) n += keywords.length;
  }
  return n;
}

/**
 * The local sandbox: each task runs against the seeded store in a CPU worker (the worker keeps the
 * generated rows of recent targets, the whois universe, and the rows of recent imports with their
 * index). `secret` signs paging tokens.
 */
export function localSeoProvider(secret: Uint8Array, imports: ImportedBacklinkSource = NO_IMPORTS): SeoProvider {
  return {
    kind: 'local',
    async post(operation: SeoOperation, path: string, body: unknown, owner?: string): Promise<ProviderEnvelope> {
      const keywords = operation === 'volume' ? keywordsOf(body) : 0;
      if (keywords > VOLUME_LIMITS.maxKeywordsPerRequest) {
        return refusedEnvelope(TASK_STATUS.postDataInvalid, `the tasks hold ${keywords} keywords; at most ${VOLUME_LIMITS.maxKeywordsPerRequest} in one request`);
      }
      return runEnvelope(path, body, async (task): Promise<TaskOutcome> => {
        // Imported rows replace the generated ones. Only the import's version is read per request:
        // a worker holding that version's rows answers at once (its index built once per import);
        // one that does not says so, and gets the rows, read from the store, parsed in the worker.
        const target = operation === 'backlinks' && typeof task.target === 'string' ? parseTarget(task.target) : null;
        const version = target ? await imports.version(target.subject) : null;
        const first = await runCpuJob('beta-seo-task', { operation, task, secret, imported: version ? { subject: target!.subject, version } : null }, { owner });
        if (!('needsImportedRows' in first)) return first;
        const current = await imports.rows(target!.subject);
        const again = await runCpuJob(
          'beta-seo-task',
          { operation, task, secret, imported: current ? { subject: target!.subject, ...current } : null },
          { transfer: current ? current.chunks.map((c) => c.buffer as ArrayBuffer) : [], owner },
        );
        if ('needsImportedRows' in again) throw new Error('a CPU worker refused the imported rows it was sent');
        return again;
      });
    },
  };
}
