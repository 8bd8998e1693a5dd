import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import * as c from '../../contract/livedocs-routes.js';
import { registerRoute } from '../http/register.js';
import { wantsFresh } from '../http/cache-control.js';
import { readUpload } from '../http/multipart.js';
import { HttpError } from '../errors.js';
import * as livedocs from '../services/livedocs.service.js';
import * as resources from '../services/resources.service.js';
import { addUrls } from '../services/resource-urls.service.js';
import { uploadDoc, uploadFile } from '../services/resource-uploads.service.js';
import * as retrieval from '../services/retrieval.service.js';
import { checkSignature } from '../services/resource-files.js';
import { withMultipart } from './multipart-scope.js';

export function livedocRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, c.createLiveDoc, ({ auth, body }) => livedocs.createLiveDoc(ctx, auth.user.id, body));
  registerRoute(app, ctx, c.listLiveDocs, ({ auth, query, request }) =>
    livedocs.listLiveDocs(ctx, auth.user.id, query, { fresh: wantsFresh(request) }),
  );
  registerRoute(app, ctx, c.getLiveDoc, ({ auth, params }) => livedocs.getLiveDoc(ctx, auth.user.id, params.short_id));
  registerRoute(app, ctx, c.updateLiveDoc, ({ auth, params, body }) =>
    livedocs.updateLiveDoc(ctx, auth.user.id, params.short_id, body),
  );
  registerRoute(app, ctx, c.deleteLiveDoc, ({ auth, params }) =>
    livedocs.deleteLiveDoc(ctx, auth.user.id, params.short_id),
  );

  registerRoute(app, ctx, c.listResources, ({ auth, params, query }) =>
    resources.listResources(ctx, auth.user.id, params.short_id, query),
  );
  registerRoute(app, ctx, c.getResource, ({ auth, params }) =>
    resources.getResource(ctx, auth.user.id, params.short_id, params.resource_id),
  );
  registerRoute(app, ctx, c.updateResource, ({ auth, params, body }) =>
    resources.updateResource(ctx, auth.user.id, params.short_id, params.resource_id, body),
  );
  registerRoute(app, ctx, c.setResourceContent, ({ auth, params, body }) =>
    resources.setContent(ctx, auth.user.id, params.short_id, params.resource_id, body.content),
  );
  registerRoute(app, ctx, c.deleteResource, ({ auth, params }) =>
    resources.deleteResource(ctx, auth.user.id, params.short_id, params.resource_id),
  );
  registerRoute(app, ctx, c.createDoc, ({ auth, params, body }) =>
    resources.createDoc(ctx, auth.user.id, params.short_id, body),
  );
  registerRoute(app, ctx, c.addUrls, ({ auth, params, body }) =>
    addUrls(ctx, auth.user.id, params.short_id, body.urls),
  );
  registerRoute(app, ctx, c.resourceContent, ({ auth, params }) =>
    resources.resourceContent(ctx, auth.user.id, params.short_id, params.resource_id),
  );

  // Uploads parse multipart in a scope of their own, with the upload limit (--max-upload-mb); the
  // other routes stay outside it, so they pay nothing for the multipart plugin's hooks.
  withMultipart(app, ctx, (scope) => {
    registerRoute(scope, ctx, c.uploadFile, async ({ auth, params, request }) => {
      await livedocs.access(ctx, auth.user.id, params.short_id, 'write');
      const up = await readUpload(request, c.uploadFile.form, path.join(ctx.config.filesDir, 'tmp'));
      return uploadFile(ctx, auth.user.id, params.short_id, { ...up, title: up.fields.title });
    });
    registerRoute(scope, ctx, c.uploadDoc, async ({ auth, params, request }) => {
      await livedocs.access(ctx, auth.user.id, params.short_id, 'write');
      const up = await readUpload(request, c.uploadDoc.form, path.join(ctx.config.filesDir, 'tmp'));
      return uploadDoc(ctx, auth.user.id, params.short_id, { ...up, title: up.fields.title });
    });
  });

  registerRoute(app, ctx, c.retrieve, ({ auth, params, body }) =>
    retrieval.retrieve(ctx, auth.user.id, params.short_id, body),
  );
  registerRoute(app, ctx, c.routeResources, ({ auth, params, body }) =>
    retrieval.route(ctx, auth.user.id, params.short_id, body),
  );
  registerRoute(app, ctx, c.pptRetrieve, ({ auth, params, body }) =>
    retrieval.pptRetrieve(ctx, auth.user.id, params.short_id, body),
  );

  registerRoute(app, ctx, c.downloadResource, async ({ auth, params, query, reply }) => {
    const url = await resources.downloadUrl(ctx, auth.user.id, params.short_id, params.resource_id, query.expires_in);
    return reply.code(302).header('location', url).header('cache-control', 'no-store').send();
  });

  registerRoute(app, ctx, c.signedFile, async ({ params, query, reply }) => {
    const check = checkSignature(
      ctx.tokenSecret,
      params.resource_id,
      query.expires,
      query.sig,
      Math.floor(ctx.now().getTime() / 1000),
    );
    if (check === 'bad') throw new HttpError('FORBIDDEN', 'the download signature is not valid');
    if (check === 'expired') throw new HttpError('FORBIDDEN', 'the download link has expired; ask for a new one');
    // With an object store the signed link leads on to the store's own URL, for the link's remaining life.
    const stored = await resources.sourceFile(ctx, params.resource_id);
    const direct =
      stored &&
      (await ctx.files.presignGet(stored.key, {
        expiresIn: query.expires - Math.floor(ctx.now().getTime() / 1000),
        fileName: stored.name,
        contentType: stored.mime,
      }));
    if (direct) return reply.code(307).header('location', direct).header('cache-control', 'no-store').send();
    const file = await resources.readSourceFile(ctx, params.resource_id);
    if (!file) throw new HttpError('NOT_FOUND', 'the file no longer exists');
    return reply
      .header('content-type', file.mime)
      .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`)
      .send(file.data);
  });
}
