import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import * as c from '../../contract/image-tasks.js';
import { registerRoute } from '../http/register.js';
import { readMultipart } from '../http/multipart.js';
import * as tasks from '../services/tasks.service.js';
import * as artifacts from '../services/artifacts.service.js';
import { taskOutputPrefix, taskZipKey } from '../services/task-files.js';
import { mimeTypeOf } from '../files/mime.js';
import { withMultipart } from './multipart-scope.js';

/** RFC 6266 filename for Content-Disposition: an ASCII fallback plus the UTF-8 name. */
function disposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Life of the object-store URLs downloads are sent to: long enough to start one, short enough not to be passed around. */
const DOWNLOAD_URL_SECONDS = 300;

async function sendFile(
  ctx: AppContext,
  reply: FastifyReply,
  file: { key: string; rel: string; size: number },
  kind: 'inline' | 'attachment',
) {
  const mime = mimeTypeOf(file.rel);
  reply
    .header('content-type', kind === 'inline' ? mime : 'application/octet-stream')
    .header('content-length', String(file.size))
    .header('content-disposition', disposition(kind, path.posix.basename(file.rel)))
    .header('x-content-type-options', 'nosniff');
  // Served inline under the session cookie: an SVG or HTML artifact must not run script here.
  if (kind === 'inline')
    reply.header(
      'content-security-policy',
      "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox",
    );
  return reply.send(await artifacts.artifactStream(ctx.files, file.key));
}

export function imageTaskRoutes(app: FastifyInstance, ctx: AppContext): void {
  // Task creation takes a form (multipart, the upload limit): the one route in a multipart scope.
  withMultipart(app, ctx, (scope) => {
    registerRoute(scope, ctx, c.createTask, async ({ auth, request }) => {
      const form = await readMultipart(request, path.join(ctx.config.filesDir, 'tmp'), c.createTask.form);
      try {
        return await tasks.createTask(ctx, auth, form);
      } finally {
        await form.discard();
      }
    });
  });
  registerRoute(app, ctx, c.listTasks, ({ auth, query }) => tasks.listTasks(ctx, auth.user.id, query));
  registerRoute(app, ctx, c.getTask, ({ auth, params }) => tasks.getTask(ctx, params.task_id, auth.user.id));
  registerRoute(app, ctx, c.cancelTask, ({ auth, params }) => tasks.cancelTask(ctx, params.task_id, auth.user.id));
  registerRoute(app, ctx, c.retryTask, ({ auth, params }) => tasks.retryTask(ctx, params.task_id, auth.user.id));
  registerRoute(app, ctx, c.taskLogs, ({ auth, params, query }) =>
    tasks.taskLogs(ctx, params.task_id, auth.user.id, query),
  );

  registerRoute(app, ctx, c.listArtifactFiles, async ({ auth, params }) => {
    const t = await tasks.ownedTask(ctx, params.task_id, auth.user.id);
    return artifacts.artifactTree(ctx.files, taskOutputPrefix(t.id));
  });
  registerRoute(app, ctx, c.artifactContent, async ({ auth, params, query }) => {
    const t = await tasks.ownedTask(ctx, params.task_id, auth.user.id);
    const q = `path=${encodeURIComponent(query.path)}`;
    const base = `${ctx.baseUrl}/tasks/${encodeURIComponent(t.id)}/artifact-files`;
    return artifacts.artifactContent(ctx.files, taskOutputPrefix(t.id), query.path, {
      download: `${base}/download?${q}`,
      resource: `${base}/resource?${q}`,
    });
  });
  registerRoute(app, ctx, c.artifactResource, async ({ auth, params, query, reply }) => {
    const t = await tasks.ownedTask(ctx, params.task_id, auth.user.id);
    // Inline files stay on this origin, under its content security policy.
    return sendFile(
      ctx,
      reply,
      await artifacts.resolveArtifact(ctx.files, taskOutputPrefix(t.id), query.path),
      'inline',
    );
  });
  registerRoute(app, ctx, c.artifactDownload, async ({ auth, params, query, reply }) => {
    const t = await tasks.ownedTask(ctx, params.task_id, auth.user.id);
    const file = await artifacts.resolveArtifact(ctx.files, taskOutputPrefix(t.id), query.path);
    const direct = await ctx.files.presignGet(file.key, {
      expiresIn: DOWNLOAD_URL_SECONDS,
      fileName: path.posix.basename(file.rel),
      contentType: 'application/octet-stream',
    });
    if (direct) return reply.code(302).header('location', direct).header('cache-control', 'no-store').send();
    return sendFile(ctx, reply, file, 'attachment');
  });
  registerRoute(app, ctx, c.artifactsZip, async ({ auth, params, reply }) => {
    const t = await tasks.ownedTask(ctx, params.task_id, auth.user.id);
    // Made when the task ended, in a store that hands out URLs: the caller is sent there.
    const stored = ctx.files.kind === 'local' ? null : await ctx.files.stat(taskZipKey(t.id));
    const direct =
      stored &&
      (await ctx.files.presignGet(stored.key, {
        expiresIn: DOWNLOAD_URL_SECONDS,
        fileName: `${t.id}.zip`,
        contentType: 'application/zip',
      }));
    if (direct) return reply.code(302).header('location', direct).header('cache-control', 'no-store').send();
    const zip = await artifacts.artifactsZip(ctx.files, taskOutputPrefix(t.id));
    reply
      .header('content-type', 'application/zip')
      .header('content-disposition', disposition('attachment', `${t.id}.zip`));
    return reply.send(zip);
  });
}
