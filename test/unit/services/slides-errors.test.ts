import { afterAll, afterEach, expect, it } from 'vitest';
import type { Store } from '../../../src/server/store/store.js';
import type { AppContext } from '../../../src/server/context.js';
import type { AuthContext } from '../../../src/server/auth/authenticate.js';
import { describeOnStores, dropTestDatabases } from '../../helpers/postgres.js';
import { JobQueue } from '../../../src/server/jobs/queue.js';
import { HttpError } from '../../../src/server/errors.js';
import { registerDocTaskKind, taskHistorical, taskStatus } from '../../../src/server/services/doc-tasks.service.js';
import { asQueryFailure } from '../../../src/server/services/doc-task-errors.js';
import { createLiveDoc } from '../../../src/server/services/livedocs.service.js';
import { createUser } from '../../../src/server/services/users.service.js';
import { createPpt } from '../../../src/server/services/slides.service.js';

const opened: Array<{ store: Store; jobs: JobQueue }> = [];
afterEach(async () => {
  for (const o of opened.splice(0)) {
    await o.jobs.stop();
    await o.store.close();
  }
});
afterAll(dropTestDatabases);

let owner: AuthContext;

describeOnStores('slide task errors of spec 7.2', (stores) => {
  async function setup() {
    const store = await stores.open();
    const jobs = new JobQueue({
      db: store.db,
      now: () => new Date(),
      concurrency: 1,
      pollMs: 20,
      recoverAllRunningAtStart: false,
    });
    opened.push({ store, jobs });
    const ctx = {
      db: store.db,
      now: () => new Date(),
      jobs,
      baseUrl: 'http://127.0.0.1:9',
      tokenSecret: new Uint8Array(32),
      config: { taskRetentionDays: 30 },
    } as unknown as AppContext;
    // Never run: these tests are about creating and reading tasks.
    registerDocTaskKind(ctx, 'ppt', { run: () => new Promise(() => undefined), removeOutputs: async () => undefined });
    const user = await createUser(ctx, { name: `slides-${opened.length}` });
    owner = { user: { id: user.id }, apiKey: null, via: 'key' } as unknown as AuthContext;
    const ld = await createLiveDoc(ctx, user.id, { name: 'Notes' });
    return { ctx, jobs, ld: ld.short_id };
  }

  it('PPT_TASK_CREATE_FAILED (502) when the task cannot be queued, and no task is left behind', async () => {
    const { ctx, jobs, ld } = await setup();
    jobs.enqueue = async () => {
      throw new Error('the jobs table is unavailable');
    };
    const err = await createPpt(ctx, owner, { query: 'solar', livedoc_short_id: ld }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ code: 'PPT_TASK_CREATE_FAILED', status: 502 });
    expect((err as Error).message).toMatch(/jobs table is unavailable/);
    expect(await ctx.db.selectFrom('doc_tasks').selectAll().execute()).toEqual([]);
  });

  it('PPT_TASK_QUERY_FAILED (502) when the status or history cannot be read; a 404 stays a 404', async () => {
    const { ctx, jobs, ld } = await setup();
    const created = await createPpt(ctx, owner, { query: 'solar', livedoc_short_id: ld });
    expect(await asQueryFailure(() => taskStatus(ctx, owner, created.task_id))).toEqual({ status: 'RUNNING' });
    jobs.get = async () => {
      throw new Error('connection to the database lost');
    };
    for (const read of [
      () => taskStatus(ctx, owner, created.task_id),
      () => taskHistorical(ctx, owner, created.task_id),
    ]) {
      const err = await asQueryFailure<unknown>(read).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'PPT_TASK_QUERY_FAILED', status: 502 });
    }
    const missing = await asQueryFailure(() => taskStatus(ctx, owner, 'task_nope')).catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });
});
