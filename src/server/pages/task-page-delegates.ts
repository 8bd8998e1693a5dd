import type { DocTaskRow } from '../services/doc-tasks.service.js';

/**
 * ppt_url is `/slides/<biz_id>` for every task kind (spec 2.6). A kind other than 'ppt' registers
 * here how its page is drawn (the landing page's renderer), and the slide viewer serves that page
 * at its URL. Nothing registered: the viewer answers 404 for that kind.
 */
export type TaskPageRenderer = (task: DocTaskRow, link: { expires?: string; sig?: string }) => Promise<string>;

const renderers = new Map<string, TaskPageRenderer>();

export function registerTaskPage(kind: string, render: TaskPageRenderer): void {
  renderers.set(kind, render);
}

export function taskPageRenderer(kind: string): TaskPageRenderer | undefined {
  return renderers.get(kind);
}
