import { z } from 'zod';
import { absoluteUrl, trimmedText } from './fields.js';
import { defineRoute } from './route.js';
import { ImageErrorBody, IMAGE_ROUTE_ERRORS } from './errors.js';

export const ProjectInfo = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  is_default: z.boolean().describe('the project tasks without project_id go to (per user, or per API key)'),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ProjectInfo = z.infer<typeof ProjectInfo>;

const ProjectName = trimmedText(200);
const Description = z.string().max(2000);

export const CreateProjectRequest = z.object({ name: ProjectName, description: Description.optional() }).strict();

export const UpdateProjectRequest = z
  .object({ name: ProjectName.optional(), description: Description.nullable().optional() })
  .strict()
  .refine((b) => b.name !== undefined || b.description !== undefined, { message: 'give name or description' });

export const ProjectFile = z.object({
  id: z.string(),
  project_id: z.string(),
  name: z.string(),
  size: z.number().int(),
  mime_type: z.string(),
  sha256: z.string(),
  created_at: z.string(),
});
export type ProjectFile = z.infer<typeof ProjectFile>;

export const UploadedFiles = z.object({ files: z.array(ProjectFile) });

export const SiteInfo = z.object({
  id: z.string(),
  project_id: z.string(),
  url: z.string(),
  title: z.string().nullable(),
  created_at: z.string(),
});
export type SiteInfo = z.infer<typeof SiteInfo>;

export const HttpUrl = absoluteUrl(['http:', 'https:'], 'must be an http(s) URL');

export const AddSiteRequest = z.object({ url: HttpUrl, title: z.string().max(1000).optional() }).strict();

export const ProjectIdParams = z.object({ project_id: z.string().min(1).max(64) });
const FileParams = ProjectIdParams.extend({ file_id: z.string().min(1).max(64) });
const SiteParams = ProjectIdParams.extend({ site_id: z.string().min(1).max(64) });

const errors = IMAGE_ROUTE_ERRORS;
const base = { auth: 'token-or-key', family: 'image', tag: 'projects' } as const;

export const listProjects = defineRoute({
  ...base,
  id: 'projects.list',
  method: 'GET',
  path: '/projects',
  summary: 'Your projects',
  responses: { 200: z.array(ProjectInfo), ...errors },
});

export const createProject = defineRoute({
  ...base,
  id: 'projects.create',
  method: 'POST',
  path: '/projects',
  summary: 'Create a project',
  body: CreateProjectRequest,
  responses: { 201: ProjectInfo, ...errors },
});

export const getProject = defineRoute({
  ...base,
  id: 'projects.get',
  method: 'GET',
  path: '/projects/{project_id}',
  summary: 'One project',
  params: ProjectIdParams,
  responses: { 200: ProjectInfo, 404: ImageErrorBody, ...errors },
});

export const updateProject = defineRoute({
  ...base,
  id: 'projects.update',
  method: 'PATCH',
  path: '/projects/{project_id}',
  summary: 'Rename a project or change its description',
  params: ProjectIdParams,
  body: UpdateProjectRequest,
  responses: { 200: ProjectInfo, 404: ImageErrorBody, ...errors },
});

export const deleteProject = defineRoute({
  ...base,
  id: 'projects.delete',
  method: 'DELETE',
  path: '/projects/{project_id}',
  summary: 'Delete a project with its files, sites, tasks and outputs (409 while a task of it is queued or running)',
  params: ProjectIdParams,
  responses: { 204: null, 404: ImageErrorBody, 409: ImageErrorBody, ...errors },
});

export const uploadProjectFiles = defineRoute({
  ...base,
  id: 'projects.files.upload',
  method: 'POST',
  path: '/projects/{project_id}/files',
  summary: 'Upload files to a project (multipart form data, one or more file fields)',
  params: ProjectIdParams,
  bodyType: 'multipart',
  form: { files: { file: 20, files: 20 }, fields: [] },
  responses: { 200: UploadedFiles, 404: ImageErrorBody, 413: ImageErrorBody, ...errors },
});

export const listProjectFiles = defineRoute({
  ...base,
  id: 'projects.files.list',
  method: 'GET',
  path: '/projects/{project_id}/files',
  summary: "A project's files",
  params: ProjectIdParams,
  responses: { 200: z.array(ProjectFile), 404: ImageErrorBody, ...errors },
});

export const deleteProjectFile = defineRoute({
  ...base,
  id: 'projects.files.delete',
  method: 'DELETE',
  path: '/projects/{project_id}/files/{file_id}',
  summary: 'Delete a project file',
  params: FileParams,
  responses: { 204: null, 404: ImageErrorBody, ...errors },
});

export const listSites = defineRoute({
  ...base,
  id: 'projects.sites.list',
  method: 'GET',
  path: '/projects/{project_id}/sites',
  summary: "A project's sites (URLs whose pages serve as knowledge)",
  params: ProjectIdParams,
  responses: { 200: z.array(SiteInfo), 404: ImageErrorBody, ...errors },
});

export const addSite = defineRoute({
  ...base,
  id: 'projects.sites.add',
  method: 'POST',
  path: '/projects/{project_id}/sites',
  summary: 'Add a site to a project',
  params: ProjectIdParams,
  body: AddSiteRequest,
  responses: { 201: SiteInfo, 404: ImageErrorBody, ...errors },
});

export const deleteSite = defineRoute({
  ...base,
  id: 'projects.sites.delete',
  method: 'DELETE',
  path: '/projects/{project_id}/sites/{site_id}',
  summary: 'Remove a site from a project',
  params: SiteParams,
  responses: { 204: null, 404: ImageErrorBody, ...errors },
});

export const imageProjectRoutes = [
  listProjects,
  createProject,
  getProject,
  updateProject,
  deleteProject,
  uploadProjectFiles,
  listProjectFiles,
  deleteProjectFile,
  listSites,
  addSite,
  deleteSite,
];
