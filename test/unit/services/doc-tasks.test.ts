import { afterAll, afterEach, expect, it } from 'vitest';
import type { Store } from '../../../src/server/store/store.js';
import type { AppContext } from '../../../src/server/context.js';
import type { AuthContext } from '../../../src/server/auth/authenticate.js';
import { describeOnStores, dropTestDatabases } from '../../helpers/postgres.js';
import { JobFailure, JobQueue } from '../../../src/server/jobs/queue.js';
import {
  TaskParked,
  cancelTask,
  createDocTask,
  registerDocTaskKind,
  retryTask,
  sweepExpiredTasks,
  taskHistorical,
  taskStatus,
  type DocTaskKindHandlers,
} from '../../../src/server/services/doc-tasks.service.js';
import { checkLink } from '../../../src/server/auth/signed-links.js';

const opened: Array<{ store: Store; jobs: JobQueue }> = [];
afterEach(async () => {
  for (const o of opened.splice(0)) {
    await o.jobs.stop();
    await o.store.close();
  }
});
afterAll(dropTestDatabases);

const owner = { user: { id: 'u1' }, apiKey: { id: 'k1' }, via: 'key' } as unknown as AuthContext;
const stranger = { user: { id: 'u2' }, apiKey: { id: 'k2' }, via: 'key' } as unknown as AuthContext;
const secret = new Uint8Array(32).fill(7);

describeOnStores('slide and landing-page tasks (spec 3 states)', (stores) => {
  async function setup(
    handlers: Partial<Record<'ppt' | 'landing_page', DocTaskKindHandlers>>,
    clock = { now: new Date('2026-03-01T00:00:00.000Z') },
  ) {
    const store = await stores.open();
    const jobs = new JobQueue({
      db: store.db,
      now: () => clock.now,
      concurrency: 2,
      pollMs: 20,
      recoverAllRunningAtStart: false,
    });
    opened.push({ store, jobs });
    const ctx = {
      db: store.db,
      now: () => clock.now,
      jobs,
      baseUrl: 'http://127.0.0.1:9',
      tokenSecret: secret,
      config: { taskRetentionDays: 30 },
    } as unknown as AppContext;
    for (const [kind, h] of Object.entries(handlers)) registerDocTaskKind(ctx, kind as 'ppt', h!);
    await jobs.start();
    return { ctx, clock };
  }
  const ended = async (ctx: AppContext, id: string) => {
    for (let i = 0; i < 400; i++) {
      const { status } = await taskStatus(ctx, owner, id);
      if (status !== 'RUNNING') return status;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`task ${id} still RUNNING`);
  };
  const create = (ctx: AppContext, kind: 'ppt' | 'landing_page' = 'ppt') =>
    createDocTask(ctx, owner, { kind, livedocId: 'ld_1', request: { query: 'q' } });

  it('a run that returns is COMPLETED: the record has signed links, no error_message, and the result is kept', async () => {
    const { ctx } = await setup({
      ppt: { run: async () => ({ slides: 3 }), removeOutputs: async () => undefined },
      landing_page: { run: async () => ({ file: 'p.html' }), removeOutputs: async () => undefined },
    });
    const task = await create(ctx);
    expect(await ended(ctx, task.id)).toBe('COMPLETED');
    const record = await taskHistorical(ctx, owner, task.id);
    expect(record).toMatchObject({
      task_id: task.id,
      task_status: 'COMPLETED',
      ppt_biz_id: task.biz_id,
      live_doc_short_id: 'ld_1',
      kind: 'ppt',
    });
    expect(record).not.toHaveProperty('error_message');
    expect(record).not.toHaveProperty('ai_page_html');
    const url = new URL(record.ppt_url);
    expect(url.pathname).toBe(`/slides/${task.biz_id}`);
    expect(
      checkLink(
        secret,
        'slides',
        task.biz_id,
        Object.fromEntries(url.searchParams),
        Math.floor(ctx.now().getTime() / 1000),
      ),
    ).toBe('ok');
    // A link for the deck opens nothing else.
    expect(
      checkLink(
        secret,
        'page',
        task.biz_id,
        Object.fromEntries(url.searchParams),
        Math.floor(ctx.now().getTime() / 1000),
      ),
    ).toBe('bad');
    expect(new URL(record.live_doc_url!).pathname).toBe('/livedocs/ld_1');

    const page = await create(ctx, 'landing_page');
    expect(await ended(ctx, page.id)).toBe('COMPLETED');
    const pageRecord = await taskHistorical(ctx, owner, page.id);
    expect(new URL(pageRecord.ai_page_html!).pathname).toBe(`/pages/${page.biz_id}`);
  });

  it('JobFailure is FAILED with its message; exhausted transient errors are FAILED with the last error', async () => {
    let calls = 0;
    const { ctx } = await setup(
      {
        ppt: {
          run: async (task) => {
            calls++;
            if (JSON.parse(task.request).query === 'bad')
              throw new JobFailure('the LiveDoc has no content to build slides from');
            throw new Error('disk hiccup');
          },
          removeOutputs: async () => undefined,
        },
        // Retries wait on the clock: this one runs in real time.
      },
      {
        get now() {
          return new Date();
        },
      },
    );
    const bad = await createDocTask(ctx, owner, { kind: 'ppt', livedocId: 'ld_1', request: { query: 'bad' } });
    expect(await ended(ctx, bad.id)).toBe('FAILED');
    expect(await taskHistorical(ctx, owner, bad.id)).toMatchObject({
      task_status: 'FAILED',
      error_message: 'the LiveDoc has no content to build slides from',
    });
    expect(calls).toBe(1);
    // Retries are 1 s apart: the 3 attempts of a transient error take about 3 s.
    const flaky = await create(ctx);
    expect(await ended(ctx, flaky.id)).toBe('FAILED');
    expect((await taskHistorical(ctx, owner, flaky.id)).error_message).toContain('disk hiccup');
  }, 20_000);

  it('TaskParked is PENDING with its message; retry runs it again to COMPLETED; retrying a COMPLETED task is a 409', async () => {
    let upstreamUp = false;
    // The run after the retry waits for this: the retry's answer is read while it runs (an instant
    // run could already be COMPLETED when the answer is read).
    let finish!: () => void;
    const finished = new Promise<void>((r) => (finish = r));
    const { ctx } = await setup({
      ppt: {
        run: async () => {
          if (!upstreamUp) throw new TaskParked('the model service is unavailable (LLM_SERVICE_UNAVAILABLE)');
          await finished;
          return { ok: true };
        },
        removeOutputs: async () => undefined,
      },
    });
    const task = await create(ctx);
    expect(await ended(ctx, task.id)).toBe('PENDING');
    expect(await taskHistorical(ctx, owner, task.id)).toMatchObject({
      task_status: 'PENDING',
      error_message: 'the model service is unavailable (LLM_SERVICE_UNAVAILABLE)',
    });
    upstreamUp = true;
    // The task shows PENDING as soon as its runner parks it; its job may still be winding down, and
    // a retry then is a 409 with Retry-After ("still stopping"): a client retries, as this does.
    let retried;
    for (let i = 0; ; i++) {
      try {
        retried = await retryTask(ctx, owner, task.id);
        break;
      } catch (err) {
        if (i >= 100 || (err as { headers?: Record<string, string> }).headers?.['retry-after'] === undefined) throw err;
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    expect(retried.task_status).toBe('RUNNING');
    expect(retried).not.toHaveProperty('error_message');
    finish();
    expect(await ended(ctx, task.id)).toBe('COMPLETED');
    await expect(retryTask(ctx, owner, task.id)).rejects.toMatchObject({ status: 409, code: 'CONFLICT' });
  });

  it("a poll whose two reads straddle a parked run's end sees PENDING, never a passing FAILED", async () => {
    const { ctx } = await setup({
      ppt: {
        run: async () => {
          throw new TaskParked('the model service is unavailable');
        },
        removeOutputs: async () => undefined,
      },
    });
    const task = await create(ctx);
    expect(await ended(ctx, task.id)).toBe('PENDING');
    // The task reads PENDING once the runner parks it; its job may still be winding down. The race
    // replayed is against an ended job, so wait for that end first.
    for (let i = 0; ; i++) {
      const job = await ctx.jobs.get(task.job_id);
      if (job && job.state !== 'queued' && job.state !== 'running') break;
      if (i >= 200) throw new Error(`job ${task.job_id} still ${job?.state}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    // Replay the race: the task row is read before the runner's outcome lands, the job after the job ended.
    const outcome = await ctx.db
      .selectFrom('doc_tasks')
      .select(['outcome', 'error_message', 'finished_at'])
      .where('id', '=', task.id)
      .executeTakeFirstOrThrow();
    await ctx.db
      .updateTable('doc_tasks')
      .set({ outcome: null, error_message: null, finished_at: null })
      .where('id', '=', task.id)
      .execute();
    const realGet = ctx.jobs.get.bind(ctx.jobs);
    const racing = Object.create(ctx.jobs, {
      get: {
        value: async (id: string) => {
          await ctx.db.updateTable('doc_tasks').set(outcome).where('id', '=', task.id).execute();
          return realGet(id);
        },
      },
    });
    expect((await taskStatus({ ...ctx, jobs: racing } as AppContext, owner, task.id)).status).toBe('PENDING');
  });

  it('cancel stops a running task: CANCELED, its signal aborted, and a runner that returns later does not make it COMPLETED', async () => {
    let aborted = false;
    let started = false;
    const { ctx } = await setup({
      ppt: {
        run: async (_task, job) => {
          started = true;
          await new Promise<void>((resolve) => job.signal.addEventListener('abort', () => resolve(), { once: true }));
          aborted = true;
          return { late: true };
        },
        removeOutputs: async () => undefined,
      },
    });
    const task = await create(ctx);
    // The runner itself has started (a job canceled before its runner starts never runs it).
    for (let i = 0; i < 200 && !started; i++) await new Promise((r) => setTimeout(r, 10));
    const record = await cancelTask(ctx, owner, task.id);
    expect(record).toMatchObject({ task_status: 'CANCELED', error_message: "canceled at the owner's request" });
    expect(aborted).toBe(true);
    expect((await taskStatus(ctx, owner, task.id)).status).toBe('CANCELED');
    // Cancelling an ended task shows it as it is.
    expect((await cancelTask(ctx, owner, task.id)).task_status).toBe('CANCELED');
  });

  it('past the retention window a completed task is EXPIRED and the sweep removes its outputs once', async () => {
    const removed: string[] = [];
    const clock = { now: new Date('2026-03-01T00:00:00.000Z') };
    const { ctx } = await setup(
      { ppt: { run: async () => ({ file: 'deck.pptx' }), removeOutputs: async (t) => void removed.push(t.id) } },
      clock,
    );
    const task = await create(ctx);
    expect(await ended(ctx, task.id)).toBe('COMPLETED');
    clock.now = new Date(clock.now.getTime() + 29 * 86_400_000);
    expect(await sweepExpiredTasks(ctx)).toBe(0);
    expect((await taskStatus(ctx, owner, task.id)).status).toBe('COMPLETED');
    clock.now = new Date(clock.now.getTime() + 2 * 86_400_000);
    // Read before any sweep ran: already EXPIRED.
    expect((await taskHistorical(ctx, owner, task.id)).task_status).toBe('EXPIRED');
    expect(await sweepExpiredTasks(ctx)).toBe(1);
    expect(await sweepExpiredTasks(ctx)).toBe(0);
    expect(removed).toEqual([task.id]);
    const record = await taskHistorical(ctx, owner, task.id);
    expect(record.task_status).toBe('EXPIRED');
    expect(record.error_message).toMatch(/retention/);
  });

  it("another user's task id is a 404, like an unknown one", async () => {
    const { ctx } = await setup({ ppt: { run: async () => ({}), removeOutputs: async () => undefined } });
    const task = await create(ctx);
    // Each call is made only when awaited: a rejection nobody awaits yet would be an unhandled one.
    const calls = [
      () => taskStatus(ctx, stranger, task.id),
      () => taskHistorical(ctx, stranger, task.id),
      () => cancelTask(ctx, stranger, task.id),
      () => retryTask(ctx, stranger, task.id),
      () => taskStatus(ctx, owner, 'task_nope'),
    ];
    for (const call of calls) await expect(call()).rejects.toMatchObject({ status: 404 });
  });
});
