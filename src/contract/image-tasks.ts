import { z } from 'zod';
import { textInt, xmlText, NOT_BLANK } from './fields.js';
import { defineRoute } from './route.js';
import { ImageErrorBody, IMAGE_ROUTE_ERRORS } from './errors.js';
import { HttpUrl } from './image-projects.js';

/** Image task states; see docs/decisions.md for the transitions. */
export const TASK_STATES = ['queued', 'running', 'succeeded', 'failed', 'canceled'] as const;
export const TaskState = z.enum(TASK_STATES);
export type TaskState = z.infer<typeof TaskState>;
export const TERMINAL_TASK_STATES: readonly TaskState[] = ['succeeded', 'failed', 'canceled'];

export const TaskKind = z.enum(['illustration', 'screenshot']);

const Size = z.string().regex(/^\d{1,5}x\d{1,5}$/, 'WxH, for example 1024x768');

const FormBoolean = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/**
 * The text fields of the POST /tasks multipart form (files ride as `files` parts). Values arrive
 * as strings, so numbers and booleans are coerced here.
 */
export const TaskCreateFields = z
  .object({
    kind: TaskKind,
    project_id: z.string().min(1).max(64).optional(),
    site_id: z.string().min(1).max(64).optional(),
    prompt: xmlText(z.string()).trim().min(1).max(4000).meta(NOT_BLANK).optional(),
    url: HttpUrl.optional(),
    size: Size.optional(),
    count: textInt({ min: 1, max: 4, default: 1 }),
    full_page: FormBoolean.default(false),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.kind === 'illustration' && !v.prompt)
      ctx.addIssue({ code: 'custom', path: ['prompt'], message: 'an illustration needs a prompt' });
    if (v.kind === 'screenshot' && !v.url)
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'a screenshot needs a url' });
    if (v.kind === 'screenshot' && v.count !== 1)
      ctx.addIssue({ code: 'custom', path: ['count'], message: 'a screenshot task takes one capture' });
  });
export type TaskCreateFields = z.infer<typeof TaskCreateFields>;

export const ReferenceFile = z.object({ name: z.string(), size: z.number().int(), mime_type: z.string() });

export const TaskInfo = z.object({
  id: z.string(),
  project_id: z.string(),
  site_id: z.string().nullable(),
  kind: TaskKind,
  model: z.string(),
  status: TaskState,
  prompt: z.string().nullable(),
  url: z.string().nullable(),
  width: z.number().int(),
  height: z.number().int(),
  count: z.number().int(),
  full_page: z.boolean(),
  reference_files: z.array(ReferenceFile),
  attempts: z.number().int(),
  max_attempts: z.number().int(),
  error: z.string().nullable(),
  result: z.unknown().nullable().describe("the engine's summary (files, seeds, page title) once succeeded"),
  created_at: z.string(),
  updated_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type TaskInfo = z.infer<typeof TaskInfo>;

export const TaskListQuery = z.object({
  project_id: z.string().min(1).optional(),
  status: TaskState.optional(),
  limit: textInt({ min: 1, max: 500, default: 100 }),
});

export const TaskIdParams = z.object({ task_id: z.string().min(1).max(64) });

export const TaskLogQuery = z.object({
  after: textInt({ min: 0, default: 0 }).describe('only lines with an id above this (for following)'),
  limit: textInt({ min: 1, max: 5000, default: 1000 }),
});

export const TaskLog = z.object({
  task_id: z.string(),
  status: TaskState,
  lines: z.array(z.object({ id: z.number().int(), at: z.string(), line: z.string() })),
  next_after: z.number().int().describe('pass as after= to get only newer lines'),
});

export const ArtifactNode = z.object({
  name: z.string(),
  path: z.string().describe('relative to the task output folder, "/"-separated'),
  type: z.enum(['file', 'directory']),
  size: z.number().int(),
  mime_type: z.string().nullable(),
  modified_at: z.string(),
});
export type ArtifactNode = z.infer<typeof ArtifactNode>;

export const ArtifactPathQuery = z.object({ path: z.string().min(1).max(1024) });

export const ArtifactContent = z.object({
  path: z.string(),
  name: z.string(),
  kind: z.enum(['text', 'image', 'binary']),
  mime_type: z.string(),
  size: z.number().int(),
  modified_at: z.string(),
  preview: z.string().nullable().describe('text files only: the first 64 KiB'),
  truncated: z.boolean(),
  download_url: z.string(),
  resource_url: z.string(),
});

const errors = { ...IMAGE_ROUTE_ERRORS, 404: ImageErrorBody } as const;
const base = { auth: 'token-or-key', family: 'image', tag: 'tasks' } as const;

export const createTask = defineRoute({
  ...base,
  id: 'tasks.create',
  method: 'POST',
  path: '/tasks',
  summary:
    'Start an illustration or screenshot task (multipart: kind, prompt, url, size, count, full_page, project_id, site_id, files)',
  bodyType: 'multipart',
  body: TaskCreateFields,
  // Reference files ride as `files` parts (`file` is taken too); the fastify limit caps them at 20.
  form: { files: { files: 20, file: 20 }, fields: Object.keys(TaskCreateFields.shape) },
  responses: { 202: TaskInfo, 413: ImageErrorBody, ...errors },
});

export const listTasks = defineRoute({
  ...base,
  id: 'tasks.list',
  method: 'GET',
  path: '/tasks',
  summary: 'Your tasks, newest first',
  query: TaskListQuery,
  responses: { 200: z.array(TaskInfo), ...errors },
});

export const getTask = defineRoute({
  ...base,
  id: 'tasks.get',
  method: 'GET',
  path: '/tasks/{task_id}',
  summary: 'Task status',
  params: TaskIdParams,
  responses: { 200: TaskInfo, ...errors },
});

export const cancelTask = defineRoute({
  ...base,
  id: 'tasks.cancel',
  method: 'POST',
  path: '/tasks/{task_id}/cancel',
  summary: 'Cancel a queued or running task (409 once it has ended)',
  params: TaskIdParams,
  responses: { 200: TaskInfo, 409: ImageErrorBody, ...errors },
});

export const retryTask = defineRoute({
  ...base,
  id: 'tasks.retry',
  method: 'POST',
  path: '/tasks/{task_id}/retry',
  summary: 'Run a failed or canceled task again (409 in other states)',
  params: TaskIdParams,
  responses: { 200: TaskInfo, 409: ImageErrorBody, ...errors },
});

export const taskLogs = defineRoute({
  ...base,
  id: 'tasks.logs',
  method: 'GET',
  path: '/tasks/{task_id}/logs',
  summary: 'Timestamped lines the engine wrote',
  params: TaskIdParams,
  query: TaskLogQuery,
  responses: { 200: TaskLog, ...errors },
});

export const listArtifactFiles = defineRoute({
  ...base,
  id: 'tasks.artifacts.tree',
  method: 'GET',
  path: '/tasks/{task_id}/artifact-files',
  summary: 'Every file and folder under the task output folder, depth first',
  params: TaskIdParams,
  responses: { 200: z.array(ArtifactNode), ...errors },
});

export const artifactContent = defineRoute({
  ...base,
  id: 'tasks.artifacts.content',
  method: 'GET',
  path: '/tasks/{task_id}/artifact-files/content',
  summary: 'A text preview (Markdown, text, JSON) or metadata and addresses (images, binaries)',
  params: TaskIdParams,
  query: ArtifactPathQuery,
  responses: { 200: ArtifactContent, ...errors },
});

export const artifactResource = defineRoute({
  ...base,
  auth: 'token-key-or-cookie',
  id: 'tasks.artifacts.resource',
  method: 'GET',
  path: '/tasks/{task_id}/artifact-files/resource',
  summary: 'The file inline with its Content-Type (also with the session cookie)',
  params: TaskIdParams,
  query: ArtifactPathQuery,
  responses: { 200: { contentType: '*/*', description: 'the file' }, ...errors },
});

export const artifactDownload = defineRoute({
  ...base,
  id: 'tasks.artifacts.download',
  method: 'GET',
  path: '/tasks/{task_id}/artifact-files/download',
  summary: 'The file as an attachment',
  params: TaskIdParams,
  query: ArtifactPathQuery,
  // 302: with an object store, a short-lived presigned URL of the file there.
  responses: { 200: { contentType: 'application/octet-stream', description: 'the file' }, 302: null, ...errors },
});

export const artifactsZip = defineRoute({
  ...base,
  id: 'tasks.artifacts.zip',
  method: 'GET',
  path: '/tasks/{task_id}/artifacts',
  summary: 'A ZIP of every file of the task output folder, streamed',
  params: TaskIdParams,
  // 302: with an object store (spec 4.1 "when already uploaded to object storage"), a short-lived presigned URL of the ZIP there.
  responses: { 200: { contentType: 'application/zip', description: 'ZIP archive' }, 302: null, ...errors },
});

export const imageTaskRoutes = [
  createTask,
  listTasks,
  getTask,
  cancelTask,
  retryTask,
  taskLogs,
  listArtifactFiles,
  artifactContent,
  artifactResource,
  artifactDownload,
  artifactsZip,
];
