import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import * as c from '../../contract/image-projects.js';
import { registerRoute } from '../http/register.js';
import { readMultipart } from '../http/multipart.js';
import { RequestValidationError } from '../errors.js';
import * as projects from '../services/projects.service.js';
import { withMultipart } from './multipart-scope.js';

export function imageProjectRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, c.listProjects, ({ auth }) => projects.listProjects(ctx, auth.user.id));
  registerRoute(app, ctx, c.createProject, ({ auth, body }) => projects.createProject(ctx, auth.user.id, body));
  registerRoute(app, ctx, c.getProject, async ({ auth, params }) =>
    projects.projectInfo(await projects.ownedProject(ctx, params.project_id, auth.user.id)),
  );
  registerRoute(app, ctx, c.updateProject, ({ auth, params, body }) =>
    projects.updateProject(ctx, params.project_id, auth.user.id, body),
  );
  registerRoute(app, ctx, c.deleteProject, ({ auth, params }) =>
    projects.deleteProject(ctx, params.project_id, auth.user.id),
  );

  registerRoute(app, ctx, c.listProjectFiles, ({ auth, params }) =>
    projects.listFiles(ctx, params.project_id, auth.user.id),
  );
  registerRoute(app, ctx, c.deleteProjectFile, ({ auth, params }) =>
    projects.deleteFile(ctx, params.project_id, params.file_id, auth.user.id),
  );

  registerRoute(app, ctx, c.listSites, ({ auth, params }) => projects.listSites(ctx, params.project_id, auth.user.id));
  registerRoute(app, ctx, c.addSite, ({ auth, params, body }) =>
    projects.addSite(ctx, params.project_id, auth.user.id, body),
  );
  registerRoute(app, ctx, c.deleteSite, ({ auth, params }) =>
    projects.removeSite(ctx, params.project_id, params.site_id, auth.user.id),
  );

  // Uploads (multipart, the upload limit): the one route in a multipart scope.
  withMultipart(app, ctx, (scope) => {
    registerRoute(scope, ctx, c.uploadProjectFiles, async ({ auth, params, request }) => {
      // Ownership first, so a stranger's upload is refused before any byte is stored.
      await projects.ownedProject(ctx, params.project_id, auth.user.id);
      const form = await readMultipart(request, path.join(ctx.config.filesDir, 'tmp'), c.uploadProjectFiles.form);
      try {
        if (form.files.length === 0)
          throw new RequestValidationError(
            [{ loc: ['body', 'file'], msg: 'Field required: at least one file part', type: 'missing' }],
            true,
          );
        return { files: await projects.addFiles(ctx, params.project_id, form.files) };
      } finally {
        await form.discard();
      }
    });
  });
}
