import { runCpuJob } from '../../../engines/workers/index.js';
import { runEnvelope, type ProviderEnvelope } from '../envelope.js';
import type { SeoOperation, SeoProvider } from '../seo-provider.js';
import { parseTarget, type StoredBacklink } from './backlinks-data.js';

/**
 * The local sandbox: each task runs against the seeded store in a CPU worker (the worker keeps the
 * generated rows of recent targets and the whois universe). `secret` signs paging tokens.
 */
export function localSeoProvider(secret: Uint8Array, loadImported: (subject: string) => Promise<StoredBacklink[] | null> = async () => null): SeoProvider {
  return {
    kind: 'local',
    post(operation: SeoOperation, path: string, body: unknown): Promise<ProviderEnvelope> {
      return runEnvelope(path, body, async (task) => {
        // Imported rows of the target (read here: the worker has no store) replace the generated ones.
        const target = operation === 'backlinks' && typeof task.target === 'string' ? parseTarget(task.target) : null;
        const imported = target ? await loadImported(target.subject) : null;
        return runCpuJob('beta-seo-task', { operation, task, secret, imported });
      });
    },
  };
}
