import { failedOutcome, type TaskOutcome } from '../envelope.js';
import type { SeoOperation } from '../seo-provider.js';
import { backlinksTask } from './backlinks.js';
import { importedBacklinks, type ImportedTarget } from './imported-backlinks.js';
import { volumeTask } from './volume.js';
import { whoisTask } from './whois.js';

export interface SeoTaskInput {
  operation: SeoOperation;
  task: Record<string, unknown>;
  /** Signs and checks paging tokens. */
  secret: Uint8Array;
  /** The backlinks target's current import (`facet serve data import`): its rows replace the generated ones. */
  imported?: ImportedTarget | null;
}

/** The worker holds no rows of the named import and none were sent: send them and run the task again. */
export interface NeedsImportedRows {
  needsImportedRows: true;
}

/**
 * One local SEO task to its outcome, a rejected task included (its status travels as data, so the
 * task can run in a CPU worker: generating and filtering thousands of rows is not for the event loop).
 */
export function runSeoTask({ operation, task, secret, imported }: SeoTaskInput): TaskOutcome | NeedsImportedRows {
  try {
    if (operation === 'backlinks') {
      const rows = imported ? importedBacklinks(imported) : undefined;
      if (rows === null) return { needsImportedRows: true };
      return backlinksTask(task, secret, rows);
    }
    if (operation === 'whois') return whoisTask(task, secret);
    return volumeTask(task);
  } catch (err) {
    return failedOutcome(err);
  }
}
