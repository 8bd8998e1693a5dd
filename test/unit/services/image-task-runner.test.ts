import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';

// The runner's task read, mocked: a task with a text reference file whose stored copy cannot be read.
vi.mock('../../../src/server/store/tasks.repo.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../src/server/store/tasks.repo.js')>()),
  findTask: () => ({
    id: 'task_1',
    user_id: 'u_1',
    api_key_id: null,
    project_id: 'prj_1',
    site_id: null,
    kind: 'illustration',
    job_id: 'job_1',
    created_at: new Date().toISOString(),
    params: JSON.stringify({
      model: 'illustration-1',
      prompt: 'a harbour',
      url: null,
      width: 64,
      height: 48,
      count: 1,
      full_page: false,
      reference_files: [{ name: 'notes.txt', size: 5, mime_type: 'text/plain', stored: '1-notes.txt' }],
    }),
  }),
}));

const { imageTaskHandler } = await import('../../../src/server/services/image-task.runner.js');

describe('the image task runner', () => {
  it('fails a run whose reference file cannot be read before its output folder was asked for, instead of waiting for that folder', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'facet-runner-'));
    const ctx = {
      files: {
        kind: 'local',
        workDir: (prefix: string) => path.join(root, prefix),
        get: async () => {
          throw Object.assign(new Error('EIO: the store could not be read'), { code: 'EIO' });
        },
      },
    } as unknown as Parameters<typeof imageTaskHandler>[0];
    const handler = imageTaskHandler(ctx);
    const job = {
      id: 'job_1',
      kind: 'image-task',
      payload: { task_id: 'task_1' },
      attempt: 1,
      maxAttempts: 2,
      signal: new AbortController().signal,
      log: async () => undefined,
    };
    const outcome = await Promise.race([
      handler(job).then(
        () => 'succeeded',
        (err: Error) => err.message,
      ),
      new Promise((r) => setTimeout(() => r('still running after 2 s'), 2000)),
    ]);
    expect(outcome).toBe('EIO: the store could not be read');
  });
});
