import type { AppContext } from '../../context.js';
import { linkQuery, PAGE_LINK_TTL_SECONDS, type LinkPurpose } from '../../auth/signed-links.js';
import * as consoleRepo from '../../store/console.repo.js';
import * as tasks from '../tasks.service.js';
import { artifactTree } from '../artifacts.service.js';
import { taskOutputPrefix } from '../task-files.js';
import { currentStatus } from '../doc-tasks.service.js';

/**
 * What the console's work pages show: a user's tasks, LiveDocs, decks, landing pages and mindmaps,
 * with links into the viewers the server already has. Viewer links are signed like the ones API
 * answers carry, but relative, so the console never points off its own origin.
 */

/** Rows a console list shows; the API pages through more. */
export const CONSOLE_LIST_LIMIT = 50;

function viewerLink(ctx: AppContext, purpose: LinkPurpose, id: string, path: string): string {
  const expires = Math.floor(ctx.now().getTime() / 1000) + PAGE_LINK_TTL_SECONDS;
  return `${path}?${linkQuery(ctx.tokenSecret, purpose, id, expires)}`;
}

export function imageTasks(ctx: AppContext, userId: string) {
  return tasks.listTasks(ctx, userId, { limit: CONSOLE_LIST_LIMIT });
}

/** One task with its log and its files; each file opens through the API's resource route, which takes the session cookie. */
export async function imageTask(ctx: AppContext, userId: string, taskId: string) {
  const task = await tasks.getTask(ctx, taskId, userId);
  const log = await tasks.taskLogs(ctx, taskId, userId, { after: 0, limit: 500 });
  const files = (await artifactTree(ctx.files, taskOutputPrefix(task.id))).filter((f) => f.type === 'file');
  const base = `/tasks/${encodeURIComponent(task.id)}/artifact-files`;
  return {
    task,
    log: log.lines,
    files: files.map((f) => ({
      ...f,
      view: `${base}/resource?path=${encodeURIComponent(f.path)}`,
      image: /^image\/(png|jpeg|gif|webp)$/.test(f.mime_type ?? ''),
    })),
  };
}

export async function liveDocs(ctx: AppContext, userId: string) {
  const docs = await consoleRepo.ownedLiveDocs(ctx.db, userId, CONSOLE_LIST_LIMIT);
  return Promise.all(
    docs.map(async (d) => ({
      id: d.id,
      name: d.name,
      description: d.description,
      modifiedAt: d.modified_at,
      page: viewerLink(ctx, 'livedoc', d.id, `/livedocs/${encodeURIComponent(d.id)}`),
      resources: await consoleRepo.resourcesOf(ctx.db, d.id, CONSOLE_LIST_LIMIT),
    })),
  );
}

export async function decks(ctx: AppContext, userId: string) {
  const rows = await consoleRepo.recentDecks(ctx.db, userId, CONSOLE_LIST_LIMIT);
  return rows.map((d) => {
    const q = linkQuery(
      ctx.tokenSecret,
      'slides',
      d.biz_id,
      Math.floor(ctx.now().getTime() / 1000) + PAGE_LINK_TTL_SECONDS,
    );
    const base = `/slides/${encodeURIComponent(d.biz_id)}`;
    const slides = JSON.parse(d.slides) as Array<{ title: string }>;
    return {
      bizId: d.biz_id,
      title: d.title,
      createdAt: d.created_at,
      viewer: `${base}?${q}`,
      download: `${base}/deck.pptx?${q}`,
      drawing: d.previews_state === 'drawing',
      previews: slides
        .slice(0, d.previews)
        .map((s, i) => ({ n: i + 1, title: s.title, src: `${base}/previews/${i + 1}?${q}` })),
    };
  });
}

export async function landingPages(ctx: AppContext, userId: string) {
  const rows = await consoleRepo.recentDocTasks(ctx.db, userId, 'landing_page', CONSOLE_LIST_LIMIT);
  return Promise.all(
    rows.map(async (t) => {
      const status = await currentStatus(ctx, t);
      return {
        bizId: t.biz_id,
        status,
        createdAt: t.created_at,
        view:
          status === 'COMPLETED' ? viewerLink(ctx, 'page', t.biz_id, `/pages/${encodeURIComponent(t.biz_id)}`) : null,
      };
    }),
  );
}

export async function mindmaps(ctx: AppContext, userId: string) {
  const rows = await consoleRepo.mindmapsOf(ctx.db, userId, CONSOLE_LIST_LIMIT);
  return rows.map((m) => ({ ...m, view: viewerLink(ctx, 'mindmap', m.id, `/mindmaps/${encodeURIComponent(m.id)}`) }));
}
