import * as c from '../contract/image-projects.js';
import { buildPath } from '../contract/route.js';
import { callRoute } from './call.js';
import { buildForm } from './multipart.js';
import type { Transport } from './transport.js';

export const projectsClient = (t: Transport) => ({
  list: () => callRoute(t, c.listProjects),
  create: (body: { name: string; description?: string }) => callRoute(t, c.createProject, { body }),
  get: (id: string) => callRoute(t, c.getProject, { params: { project_id: id } }),
  update: (id: string, body: { name?: string; description?: string | null }) =>
    callRoute(t, c.updateProject, { params: { project_id: id }, body }),
  delete: (id: string) => callRoute(t, c.deleteProject, { params: { project_id: id } }),
  async upload(id: string, files: string[]) {
    const form = await buildForm(
      {},
      files.map((file) => ({ field: 'file', file })),
    );
    return t.call<{ files: c.ProjectFile[] }>({
      method: 'POST',
      path: buildPath(c.uploadProjectFiles.path, { project_id: id }),
      auth: c.uploadProjectFiles.auth,
      service: 'image',
      form,
    });
  },
  files: (id: string) => callRoute(t, c.listProjectFiles, { params: { project_id: id } }),
  deleteFile: (id: string, fileId: string) =>
    callRoute(t, c.deleteProjectFile, { params: { project_id: id, file_id: fileId } }),
  sites: (id: string) => callRoute(t, c.listSites, { params: { project_id: id } }),
  addSite: (id: string, body: { url: string; title?: string }) =>
    callRoute(t, c.addSite, { params: { project_id: id }, body }),
  removeSite: (id: string, siteId: string) =>
    callRoute(t, c.deleteSite, { params: { project_id: id, site_id: siteId } }),
});
