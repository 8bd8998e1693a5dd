import * as c from '../contract/image-tasks.js';
import { buildPath } from '../contract/route.js';
import { callRoute } from './call.js';
import { ApiError, describeErrorBody } from './errors.js';
import { buildForm } from './multipart.js';
import type { RawResponse, Transport } from './transport.js';

export interface CreateTaskInput {
  kind: 'illustration' | 'screenshot';
  prompt?: string;
  url?: string;
  size?: string;
  count?: number;
  full_page?: boolean;
  project_id?: string;
  site_id?: string;
  files?: string[];
}

function throwIfError(res: RawResponse): RawResponse {
  if (res.status < 400) return res;
  let body: unknown = res.body.toString('utf8');
  try {
    body = JSON.parse(body as string);
  } catch {
    /* not JSON */
  }
  const d = describeErrorBody(res.status, body);
  throw new ApiError(res.status, d.code, d.message, res.requestId, body);
}

export const tasksClient = (t: Transport) => {
  const raw = async (path: string, query: Record<string, string> = {}) =>
    // Downloads may be redirected to the object store's presigned URL: followed, without credentials.
    throwIfError(
      await t.send({
        method: 'GET',
        path,
        auth: 'token-or-key',
        service: 'image',
        query,
        raw: true,
        followRedirects: true,
      }),
    );
  const taskPath = (route: { path: string }, id: string) => buildPath(route.path, { task_id: id });
  return {
    async create(input: CreateTaskInput): Promise<c.TaskInfo> {
      const { files = [], ...fields } = input;
      const form = await buildForm(
        fields,
        files.map((file) => ({ field: 'files', file })),
      );
      return t.call<c.TaskInfo>({
        method: 'POST',
        path: c.createTask.path,
        auth: c.createTask.auth,
        service: 'image',
        form,
      });
    },
    list: (query: { project_id?: string; status?: c.TaskState; limit?: number } = {}) =>
      callRoute(t, c.listTasks, { query }),
    get: (id: string, options: { signal?: AbortSignal } = {}) =>
      callRoute(t, c.getTask, { params: { task_id: id }, signal: options.signal }),
    cancel: (id: string) => callRoute(t, c.cancelTask, { params: { task_id: id } }),
    retry: (id: string) => callRoute(t, c.retryTask, { params: { task_id: id } }),
    logs: (id: string, query: { after?: number; limit?: number } = {}) =>
      callRoute(t, c.taskLogs, { params: { task_id: id }, query }),
    files: (id: string) => callRoute(t, c.listArtifactFiles, { params: { task_id: id } }),
    content: (id: string, path: string) =>
      callRoute(t, c.artifactContent, { params: { task_id: id }, query: { path } }),
    /** The file's bytes (the download endpoint). */
    download: (id: string, path: string) => raw(taskPath(c.artifactDownload, id), { path }),
    /** The ZIP of every artifact. */
    zip: (id: string) => raw(taskPath(c.artifactsZip, id)),
  };
};
