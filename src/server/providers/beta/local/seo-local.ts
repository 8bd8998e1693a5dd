import { runCpuJob } from '../../../engines/workers/index.js';
import { runEnvelope, type ProviderEnvelope } from '../envelope.js';
import type { SeoOperation, SeoProvider } from '../seo-provider.js';

/**
 * The local sandbox: each task runs against the seeded store in a CPU worker (the worker keeps the
 * generated rows of recent targets and the whois universe). `secret` signs paging tokens.
 */
export function localSeoProvider(secret: Uint8Array): SeoProvider {
  return {
    kind: 'local',
    post(operation: SeoOperation, path: string, body: unknown): Promise<ProviderEnvelope> {
      return runEnvelope(path, body, (task) => runCpuJob('beta-seo-task', { operation, task, secret }));
    },
  };
}
