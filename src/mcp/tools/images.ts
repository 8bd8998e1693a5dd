import { z } from 'zod';
import { TERMINAL_TASK_STATES } from '../../contract/image-tasks.js';
import { PlatformOutcomeError } from '../errors.js';
import { defineTool } from '../tool.js';
import { waitFor } from '../wait.js';

/** Pictures larger than this are linked, not sent inline. */
const MAX_INLINE_BYTES = 4 * 1024 * 1024;

export const imageTaskCreate = defineTool({
  name: 'image_task_create',
  title: 'Make pictures',
  description:
    'Run an image task and return its pictures (PNG): an illustration drawn from a prompt (1-4 pictures), or a screenshot of a web page. It waits for the task, reporting progress; cancelling the call cancels the task.',
  input: z.object({
    kind: z.enum(['illustration', 'screenshot']).default('illustration'),
    prompt: z.string().trim().min(1).max(4000).optional().describe('what to draw (illustration)'),
    url: z
      .url({ protocol: /^https?$/ })
      .optional()
      .describe('the page to capture (screenshot)'),
    size: z
      .string()
      .regex(/^\d{1,5}x\d{1,5}$/)
      .optional()
      .describe('WIDTHxHEIGHT, e.g. 1024x768'),
    count: z.number().int().min(1).max(4).default(1).describe('pictures (illustration)'),
  }),
  output: z.object({
    task_id: z.string(),
    status: z.enum(['queued', 'running', 'succeeded', 'failed', 'canceled']),
    files: z.array(z.object({ path: z.string(), mime_type: z.string().nullable(), size: z.number().int() })),
  }),
  async run(args, { api, signal, progress }) {
    const task = await api.tasks.create({
      kind: args.kind,
      ...(args.prompt ? { prompt: args.prompt } : {}),
      ...(args.url ? { url: args.url } : {}),
      ...(args.size ? { size: args.size } : {}),
      ...(args.kind === 'illustration' ? { count: args.count } : {}),
    });
    let looks = 0;
    await progress(looks, `image task ${task.id} ${task.status}`);
    const end = await waitFor({
      what: `image task ${task.id}`,
      signal,
      check: (s) => api.tasks.get(task.id, { signal: s }),
      done: (t) => (TERMINAL_TASK_STATES as readonly string[]).includes(t.status),
      report: (t) => progress(++looks, `image task ${t.id}: ${t.status}`),
      cancel: () => api.tasks.cancel(task.id),
    });
    if (end.status !== 'succeeded')
      throw new PlatformOutcomeError(
        `TASK_${end.status.toUpperCase()}`,
        `image task ${end.id} ${end.status}${end.error ? `: ${end.error}` : ''}`,
      );
    const files = (await api.tasks.files(end.id)).filter((f) => f.type === 'file');
    const images = [];
    for (const f of files.filter((f) => f.mime_type === 'image/png' && f.size <= MAX_INLINE_BYTES)) {
      const res = await api.tasks.download(end.id, f.path);
      images.push({ data: res.body.toString('base64'), mimeType: 'image/png' });
    }
    return {
      structured: {
        task_id: end.id,
        status: end.status,
        files: files.map((f) => ({ path: f.path, mime_type: f.mime_type, size: f.size })),
      },
      text: `image task ${end.id} succeeded: ${files.map((f) => f.path).join(', ')}`,
      images,
    };
  },
});
