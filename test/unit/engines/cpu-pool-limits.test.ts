import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CpuPool, onCpuWait, type LaneName } from '../../../src/server/engines/workers/pool.js';
import { cpuLimitsFromEnv, parseTimeouts, type CpuLimits } from '../../../src/server/engines/workers/limits.js';
import { HttpError } from '../../../src/server/errors.js';

// The pool runs the built worker and render child: `npm run build` first.
const DIST = path.resolve(import.meta.dirname, '../../../dist');
const SCRIPTS = {
  worker: pathToFileURL(path.join(DIST, 'worker.js')),
  child: pathToFileURL(path.join(DIST, 'render-child.js')),
};
// Time limits far above any job here (the machine may be busy), except where a test sets its own.
const limits = (over: Partial<CpuLimits> = {}): CpuLimits => ({
  size: 1,
  heavySize: 2,
  sliceMs: 1_000,
  // Above every input here, unless a test sets its own: these tests are about the other lanes.
  heavyInputSize: 64 * 1024 * 1024,
  timeoutMs: parseTimeouts('300000'),
  memoryMb: 512,
  queueMax: 64,
  ownerQueueMax: 16,
  ...over,
});
const LONG_TEXT = '日本語の文章'.repeat(200_000);
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16" fill="#c00"/></svg>';

async function httpError(p: Promise<unknown>): Promise<HttpError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HttpError);
  return err as HttpError;
}

async function withPool<T>(over: Partial<CpuLimits>, use: (pool: CpuPool) => Promise<T>): Promise<T> {
  const pool = new CpuPool(SCRIPTS, limits(over), { urgentLane: true });
  try {
    return await use(pool);
  } finally {
    await pool.close();
  }
}

describe('the CPU pool limits', () => {
  it('reads its limits from the environment, with defaults', () => {
    const d = cpuLimitsFromEnv({});
    expect([
      d.memoryMb,
      d.queueMax,
      d.ownerQueueMax,
      d.timeoutMs['count-tokens'],
      d.timeoutMs['shape-html'],
      d.timeoutMs['render-png'],
      d.timeoutMs.default,
    ]).toEqual([512, 256, 64, 30_000, 30_000, 60_000, 60_000]);
    const all = cpuLimitsFromEnv({
      FACET_CPU_JOB_TIMEOUT_MS: '1500',
      FACET_CPU_JOB_MEMORY_MB: '256',
      FACET_CPU_QUEUE_MAX: '8',
      FACET_CPU_QUEUE_PER_OWNER: '50',
      FACET_CPU_WORKERS: '3',
    });
    expect([
      all.timeoutMs['count-tokens'],
      all.timeoutMs['write-deck'],
      all.timeoutMs.default,
      all.memoryMb,
      all.queueMax,
      all.ownerQueueMax,
      all.size,
    ]).toEqual([1500, 1500, 1500, 256, 8, 8, 3]);
    const some = parseTimeouts('render-png=5000, count-tokens=2000,default=9000,bogus=x');
    expect([some['render-png'], some['count-tokens'], some.default, some['write-deck'], some.bogus]).toEqual([
      5000,
      2000,
      9000,
      60_000,
      undefined,
    ]);
    // Not a positive integer: the default stays.
    expect(cpuLimitsFromEnv({ FACET_CPU_JOB_MEMORY_MB: '-1', FACET_CPU_QUEUE_MAX: '0' })).toMatchObject({
      memoryMb: 512,
      queueMax: 256,
    });
  });

  it("tells each job's wait for a worker to the listeners (the /metrics histogram), by lane", async () => {
    const waits: Array<[LaneName, number]> = [];
    const stop = onCpuWait((lane, seconds) => waits.push([lane, seconds]));
    try {
      await withPool({}, async (pool) => {
        const html = {
          html: '<p>x</p>',
          url: 'https://example.com/',
          options: { format: 'markdown', readability: 'off' },
        };
        await Promise.all([pool.run('shape-html', html), pool.run('shape-html', html, { urgent: true })]);
      });
    } finally {
      stop();
    }
    expect(waits.map(([lane]) => lane).sort()).toEqual(['general', 'urgent']);
    for (const [, seconds] of waits) expect(seconds).toBeGreaterThanOrEqual(0);
  });

  it('stops a job past its CPU-time limit with a 422 that names the limit and the input, and runs the next job', async () => {
    await withPool({ timeoutMs: parseTimeouts('count-tokens=300') }, async (pool) => {
      const err = await httpError(pool.run('count-tokens', { texts: [LONG_TEXT] }));
      expect([err.status, err.code]).toEqual([422, 'CPU_TIME_LIMIT_EXCEEDED']);
      expect(err.message).toContain(
        'the count-tokens job used more than its 300 ms of CPU time on its input, 1 text of 1,200,000 characters in all',
      );
      // Counted for /metrics (facet_cpu_pool_limit_kills_total) on its lane.
      expect(pool.stats().find((l) => l.lane === 'general')?.kills).toEqual({ time: 1, memory: 0 });
      // A new worker takes the stopped one's place (a count there would load the encoder again, past 300 ms).
      await expect(
        pool.run('shape-html', {
          html: '<h1>Hi</h1>',
          url: 'https://example.com/',
          options: { format: 'markdown', readability: 'off' },
        }),
      ).resolves.toMatchObject({ ok: true });
    });
  });

  it('stops a job past its memory limit with a 422 that names the limit, and runs the next job', async () => {
    await withPool({ memoryMb: 64 }, async (pool) => {
      // 40 MB of text and its tokens: more than a 64 MB heap holds.
      const err = await httpError(
        pool.run('count-tokens', { texts: Array.from({ length: 40 }, (_, i) => String(i % 10).repeat(1_000_000)) }),
      );
      expect([err.status, err.code]).toEqual([422, 'CPU_MEMORY_LIMIT_EXCEEDED']);
      expect(err.message).toContain('64 MB');
      // On the lane it ran on last (past its slice, the heavy one).
      const kills = pool.stats().map((l) => l.kills);
      expect(kills.reduce((n, k) => n + k.memory + k.time, 0)).toBe(1);
      expect(kills.reduce((n, k) => n + k.memory, 0)).toBe(1);
      await expect(
        pool.run('shape-html', {
          html: '<h1>Hi</h1>',
          url: 'https://example.com/',
          options: { format: 'markdown', readability: 'off' },
        }),
      ).resolves.toMatchObject({ ok: true });
    });
  });

  it('refuses a job with a 503 and Retry-After when the queue is full, and when one owner has its share waiting', async () => {
    await withPool({ queueMax: 3, ownerQueueMax: 2 }, async (pool) => {
      const running = pool.run('count-tokens', { texts: [LONG_TEXT] });
      const waiting = [
        pool.run('count-tokens', { texts: ['a'] }, { owner: 'key-a' }),
        pool.run('count-tokens', { texts: ['b'] }, { owner: 'key-a' }),
      ];
      const share = await httpError(pool.run('count-tokens', { texts: ['c'] }, { owner: 'key-a' }));
      expect([share.status, share.code, share.headers['retry-after']]).toEqual([503, 'SERVICE_UNAVAILABLE', '5']);
      expect(share.message).toContain('FACET_CPU_QUEUE_PER_OWNER');
      // Another owner still gets the last place in the queue, then the queue is full for everyone.
      waiting.push(pool.run('count-tokens', { texts: ['d'] }, { owner: 'key-b' }));
      const full = await httpError(pool.run('count-tokens', { texts: ['e'] }, { owner: 'key-c' }));
      expect([full.status, full.headers['retry-after']]).toEqual([503, '5']);
      expect(full.message).toContain('FACET_CPU_QUEUE_MAX');
      // The urgent lane has a queue of its own.
      await expect(pool.run('count-tokens', { texts: ['f g'] }, { urgent: true, owner: 'key-c' })).resolves.toEqual([
        2,
      ]);
      await expect(Promise.all([running, ...waiting])).resolves.toHaveLength(4);
    });
  });

  it("takes waiting jobs round-robin between owners: one owner's queue does not hold another's job", async () => {
    await withPool({}, async (pool) => {
      const order: string[] = [];
      const job = (owner: string, tag: string) =>
        pool.run('count-tokens', { texts: [tag] }, { owner }).then(() => order.push(tag));
      const first = pool.run('count-tokens', { texts: [LONG_TEXT] }, { owner: 'heavy' });
      const all = [job('heavy', 'h1'), job('heavy', 'h2'), job('heavy', 'h3'), job('light', 'l1')];
      await Promise.all([first, ...all]);
      // The light owner's job is never behind more than one of heavy's (first, while heavy runs
      // LONG_TEXT: an owner with nothing running goes first; else the two take turns), and each
      // owner's own jobs keep their order.
      expect(order.indexOf('l1')).toBeLessThan(order.indexOf('h2'));
      expect(order.filter((t) => t.startsWith('h'))).toEqual(['h1', 'h2', 'h3']);
    });
  });

  it('runs native renders in a child process: a child that aborts fails only its job, and the next render works', async () => {
    // The child reads this when it starts (tests only): a render whose input holds the marker aborts it, as a resvg panic does.
    process.env.FACET_TEST_RENDER_CHILD_ABORT = 'abort-this-child';
    try {
      await withPool({}, async (pool) => {
        await expect(pool.run('render-png', { svg: SVG })).resolves.toMatchObject({ width: 16, height: 16 });
        const crashed = await httpError(
          pool.run('render-png', { svg: SVG.replace('#c00', '#c00" id="abort-this-child') }),
        );
        expect([crashed.status, crashed.code]).toEqual([422, 'RENDERER_CRASHED']);
        expect(crashed.message).toContain('SIGABRT');
        // This process (the server's, in production) is still here, and a new child draws the next one.
        await expect(pool.run('render-png', { svg: SVG })).resolves.toMatchObject({ width: 16, height: 16 });
        // Meanwhile thread jobs were never affected.
        await expect(pool.run('count-tokens', { texts: ['hello world'] })).resolves.toEqual([2]);
      });
    } finally {
      delete process.env.FACET_TEST_RENDER_CHILD_ABORT;
    }
  });

  it('stops a render child past its time limit and starts a new one', async () => {
    await withPool({ timeoutMs: parseTimeouts('render-png=1') }, async (pool) => {
      // 1 ms is less than a child takes to start: the limit is hit every time.
      const err = await httpError(pool.run('render-png', { svg: SVG }));
      expect(err.code).toBe('CPU_TIME_LIMIT_EXCEEDED');
    });
    await withPool({}, async (pool) => {
      await expect(pool.run('render-png', { svg: SVG })).resolves.toMatchObject({ width: 16 });
    });
  });
});
