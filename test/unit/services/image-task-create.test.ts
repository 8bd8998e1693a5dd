import { afterAll, afterEach, expect, it } from 'vitest';
import type { Store } from '../../../src/server/store/store.js';
import type { AppContext } from '../../../src/server/context.js';
import type { AuthContext } from '../../../src/server/auth/authenticate.js';
import { JobQueue } from '../../../src/server/jobs/queue.js';
import { createTask } from '../../../src/server/services/tasks.service.js';
import { describeOnStores, dropTestDatabases } from '../../helpers/postgres.js';

const opened: Store[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});
afterAll(dropTestDatabases);

const auth = { user: { id: 'u_tasks' }, apiKey: null, via: 'session' } as unknown as AuthContext;
const form = (fields: Record<string, string>) => ({ fields, files: [], discard: async () => undefined });

describeOnStores('creating an image task', (stores) => {
  it('writes the task and its job together: a job that cannot be queued leaves no task behind', async () => {
    const store = await stores.open();
    opened.push(store);
    await store.db
      .insertInto('users')
      .values({
        id: 'u_tasks',
        name: 'tasks',
        role: 'user',
        plan: 'free',
        credits: 0,
        created_at: new Date().toISOString(),
      })
      .execute();
    // A queue with no image-task handler refuses the job, as a failed write would.
    const jobs = new JobQueue({ db: store.db, now: () => new Date(), concurrency: 1, recoverAllRunningAtStart: false });
    const ctx = { db: store.db, now: () => new Date(), jobs, config: {}, files: undefined } as unknown as AppContext;
    await expect(createTask(ctx, auth, form({ kind: 'illustration', prompt: 'a lighthouse' }))).rejects.toThrow(
      /no handler registered/,
    );
    expect(await store.db.selectFrom('tasks').select('id').execute()).toEqual([]);
    expect(await store.db.selectFrom('jobs').select('id').execute()).toEqual([]);
  });
});
