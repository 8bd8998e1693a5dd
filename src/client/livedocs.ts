import * as c from '../contract/livedocs-routes.js';
import type { Resource } from '../contract/livedocs.js';
import { buildPath } from '../contract/route.js';
import { callRoute } from './call.js';
import { buildForm } from './multipart.js';
import type { Transport } from './transport.js';

type ListQuery = { keyword?: string; page?: number; size?: number };
type UrlItem = string | { url: string; title?: string };

async function upload(
  t: Transport,
  route: typeof c.uploadFile | typeof c.uploadDoc,
  shortId: string,
  filePath: string,
  title?: string,
): Promise<Resource> {
  const result = await t.call<{ data: Resource }>({
    method: route.method,
    path: buildPath(route.path, { short_id: shortId }),
    auth: route.auth,
    form: await buildForm({ title }, [{ field: 'file', file: filePath }]),
  });
  return result.data;
}

export const livedocsClient = (t: Transport) => ({
  list: (query: ListQuery = {}) => callRoute(t, c.listLiveDocs, { query }),
  create: (body: { name: string; description?: string; icon?: string }) => callRoute(t, c.createLiveDoc, { body }),
  get: (shortId: string) => callRoute(t, c.getLiveDoc, { params: { short_id: shortId } }),
  update: (shortId: string, body: { name?: string; description?: string }) =>
    callRoute(t, c.updateLiveDoc, { params: { short_id: shortId }, body }),
  delete: (shortId: string) => callRoute(t, c.deleteLiveDoc, { params: { short_id: shortId } }),
  resources: {
    list: (shortId: string, query: { resource_types?: string[]; page?: number; size?: number } = {}) =>
      callRoute(t, c.listResources, { params: { short_id: shortId }, query: query }),
    get: (shortId: string, id: string) =>
      callRoute(t, c.getResource, { params: { short_id: shortId, resource_id: id } }),
    update: (shortId: string, id: string, body: { title?: string; snippet?: string; thumbnail?: string }) =>
      callRoute(t, c.updateResource, { params: { short_id: shortId, resource_id: id }, body }),
    setContent: (shortId: string, id: string, content: string) =>
      callRoute(t, c.setResourceContent, { params: { short_id: shortId, resource_id: id }, body: { content } }),
    content: (shortId: string, id: string) =>
      callRoute(t, c.resourceContent, { params: { short_id: shortId, resource_id: id } }),
    delete: (shortId: string, id: string) =>
      callRoute(t, c.deleteResource, { params: { short_id: shortId, resource_id: id } }),
    addUrls: (shortId: string, urls: UrlItem[]) =>
      callRoute(t, c.addUrls, { params: { short_id: shortId }, body: { urls } }),
    addDoc: (shortId: string, body: { title?: string; content: string }) =>
      callRoute(t, c.createDoc, { params: { short_id: shortId }, body }),
    upload: (shortId: string, filePath: string) => upload(t, c.uploadFile, shortId, filePath),
    uploadDoc: (shortId: string, filePath: string, title?: string) => upload(t, c.uploadDoc, shortId, filePath, title),
    retrieve: (
      shortId: string,
      body: { query: string; resource_ids?: string[]; top_k?: number; include_generated?: boolean },
    ) => callRoute(t, c.retrieve, { params: { short_id: shortId }, body }),
    route: (shortId: string, body: { query: string; max_resources?: number; include_generated?: boolean }) =>
      callRoute(t, c.routeResources, { params: { short_id: shortId }, body }),
    pptRetrieve: (shortId: string, body: { resource_id: string; page_number: number; query?: string }) =>
      callRoute(t, c.pptRetrieve, { params: { short_id: shortId }, body }),
    /** The signed URL the platform redirects to; fetching it needs no credentials until it expires. */
    async downloadUrl(shortId: string, id: string, expiresIn?: number): Promise<string> {
      const res = await t.send({
        method: 'GET',
        path: buildPath(c.downloadResource.path, { short_id: shortId, resource_id: id }),
        auth: c.downloadResource.auth,
        query: { expires_in: expiresIn },
      });
      const location = res.headers.location;
      if (res.status !== 302 || typeof location !== 'string') return t.parse<never>(res);
      return location;
    },
  },
});
