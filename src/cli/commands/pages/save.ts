import { writeFile } from 'node:fs/promises';
import type { TaskHistorical } from '../../../contract/doc-tasks.js';
import type { Deps } from '../../deps.js';
import { CliError } from '../../exit-codes.js';

/** Writes a completed task's page to `out` (0600 is not needed: it is the user's own file). */
export async function savePage(deps: Deps, record: TaskHistorical, out: string | undefined): Promise<void> {
  if (!out) return;
  if (!record.ai_page_html)
    throw new CliError(`task ${record.task_id} is ${record.task_status}: it has no page to save`);
  const html = await (await deps.api('landingPages')).landingPages.html(record.ai_page_html);
  await writeFile(out, html);
  deps.io().info(`saved the landing page to ${out} (${Buffer.byteLength(html)} bytes)`);
}
