import { failedOutcome, type TaskOutcome } from '../envelope.js';
import type { SeoOperation } from '../seo-provider.js';
import { volumeTask } from './volume.js';
import { whoisTask } from './whois.js';

export interface SeoTaskInput {
  operation: SeoOperation;
  task: Record<string, unknown>;
  /** Signs and checks paging tokens. */
  secret: Uint8Array;
}

/**
 * One local SEO task to its outcome, a rejected task included (its status travels as data, so the
 * task can run in a CPU worker: generating and filtering thousands of rows is not for the event loop).
 */
export function runSeoTask({ operation, task, secret }: SeoTaskInput): TaskOutcome {
  try {
    if (operation === 'whois') return whoisTask(task, secret);
    return volumeTask(task);
  } catch (err) {
    return failedOutcome(err);
  }
}
