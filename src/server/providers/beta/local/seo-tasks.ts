import { failedOutcome, type TaskOutcome } from '../envelope.js';
import type { SeoOperation } from '../seo-provider.js';
import { backlinksTask } from './backlinks.js';
import type { StoredBacklink } from './backlinks-data.js';
import { volumeTask } from './volume.js';
import { whoisTask } from './whois.js';

export interface SeoTaskInput {
  operation: SeoOperation;
  task: Record<string, unknown>;
  /** Signs and checks paging tokens. */
  secret: Uint8Array;
  /** Rows imported for a backlinks target (`facet serve data import`): they replace the generated ones. */
  imported?: StoredBacklink[] | null;
}

/**
 * One local SEO task to its outcome, a rejected task included (its status travels as data, so the
 * task can run in a CPU worker: generating and filtering thousands of rows is not for the event loop).
 */
export function runSeoTask({ operation, task, secret, imported }: SeoTaskInput): TaskOutcome {
  try {
    if (operation === 'backlinks') return backlinksTask(task, secret, imported ?? undefined);
    if (operation === 'whois') return whoisTask(task, secret);
    return volumeTask(task);
  } catch (err) {
    return failedOutcome(err);
  }
}
