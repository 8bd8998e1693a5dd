import { runCpuJob } from '../../../engines/workers/index.js';
import { TASK_STATUS, VOLUME_LIMITS } from '../../../../contract/beta-seo.js';
import { refusedEnvelope, runEnvelope, type ProviderEnvelope, type TaskOutcome } from '../envelope.js';
import type { SeoOperation, SeoProvider } from '../seo-provider.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../../store/database.js';
import { backlinksTask } from './backlinks.js';

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
 * The local sandbox. Backlinks are SQL over the store's tables (seeded on a target's first request,
 * or imported); whois and volume run against the seeded data in a CPU worker (it keeps the whois
 * universe). `secret` signs paging tokens.
 */
export function localSeoProvider(secret: Uint8Array, db: Kysely<Database>): SeoProvider {
  return {
    kind: 'local',
    async post(operation: SeoOperation, path: string, body: unknown, owner?: string): Promise<ProviderEnvelope> {
      const keywords = operation === 'volume' ? keywordsOf(body) : 0;
      if (keywords > VOLUME_LIMITS.maxKeywordsPerRequest) {
        return refusedEnvelope(
          TASK_STATUS.postDataInvalid,
          `the tasks hold ${keywords} keywords; at most ${VOLUME_LIMITS.maxKeywordsPerRequest} in one request`,
        );
      }
      return runEnvelope(path, body, (task): Promise<TaskOutcome> =>
        operation === 'backlinks'
          ? backlinksTask(db, task, secret)
          : runCpuJob('beta-seo-task', { operation, task, secret }, { owner }),
      );
    },
  };
}
