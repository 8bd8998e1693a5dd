import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CpuPool } from '../../../src/server/engines/workers/pool.js';
import { parseTimeouts, type CpuLimits } from '../../../src/server/engines/workers/limits.js';

// The pool runs the built worker and render child: `npm run build` first.
const DIST = path.resolve(import.meta.dirname, '../../../dist');
const SCRIPTS = {
  worker: pathToFileURL(path.join(DIST, 'worker.js')),
  child: pathToFileURL(path.join(DIST, 'render-child.js')),
};
const limits = (over: Partial<CpuLimits> = {}): CpuLimits => ({
  size: 1,
  heavySize: 2,
  sliceMs: 1_000,
  heavyInputSize: 64 * 1024 * 1024,
  timeoutMs: parseTimeouts('300000'),
  memoryMb: 512,
  queueMax: 64,
  ownerQueueMax: 16,
  ...over,
});
/** Seconds of CPU for one token count. */
const HEAVY_TEXT = '日本語の文章'.repeat(300_000);
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16" fill="#c00"/></svg>';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function withPool<T>(over: Partial<CpuLimits>, use: (pool: CpuPool) => Promise<T>): Promise<T> {
  const pool = new CpuPool(SCRIPTS, limits(over), { urgentLane: true });
  try {
    return await use(pool);
  } finally {
    await pool.close();
  }
}

describe('the CPU pool is fair between callers', () => {
  it("serves another caller's small job before one caller's heavy jobs, which held the only general worker", async () => {
    // A short slice: a loaded test machine reaches it soon (the default is 1 s of CPU).
    await withPool({ sliceMs: 300 }, async (pool) => {
      let heavyDone = 0;
      const heavy = [1, 2, 3].map(() =>
        pool.run('count-tokens', { texts: [HEAVY_TEXT] }, { owner: 'heavy' }).then(() => heavyDone++),
      );
      const settled = Promise.allSettled(heavy);
      await sleep(100);
      // A small job whose code loads quickly (a new thread may run it: the heavy job took the other one along).
      const small = await pool.run(
        'chunk-text',
        { text: '# Hello\n\nA short note.', defaultTitle: 'note' },
        { owner: 'small' },
      );
      expect(small).toHaveLength(1);
      // Before, it waited for the first heavy job to end (seconds of CPU); the time it takes on an idle
      // machine (within a second or two) is measured in bench/event-loop (BENCH_PARTS=hostile,fair).
      expect(heavyDone).toBe(0);
      expect((await settled).map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      // The heavy jobs left the general lane past their slice: one moved on, the others waited on the heavy lane.
      const general = pool.stats().find((l) => l.lane === 'general')!;
      expect(general.yielded.moved).toBeGreaterThanOrEqual(1);
      expect(general.yielded.moved + general.yielded.requeued).toBeGreaterThanOrEqual(3);
      const heavyLane = pool.stats().find((l) => l.lane === 'heavy')!;
      expect(heavyLane.wait.jobs).toBeGreaterThanOrEqual(2);
      expect(general.wait.jobs).toBeGreaterThanOrEqual(4);
    });
  });

  it('starts a large input on the heavy lane, leaving the general worker free', async () => {
    await withPool({ heavyInputSize: 1024 * 1024 }, async (pool) => {
      let heavyDone = false;
      const heavy = pool.run('count-tokens', { texts: [HEAVY_TEXT] }, { owner: 'a' }).then(() => (heavyDone = true));
      await sleep(50);
      expect(pool.stats().find((l) => l.lane === 'heavy')!.running).toBe(1);
      await expect(pool.run('count-tokens', { texts: ['x y'] }, { owner: 'b' })).resolves.toEqual([2]);
      expect(heavyDone).toBe(false);
      await heavy;
    });
  });

  it('counts CPU time, not wall time: a job kept from running past its limit still finishes', async () => {
    await withPool({ timeoutMs: parseTimeouts('render-png=1500') }, async (pool) => {
      const render = pool.run('render-png', { svg: SVG });
      // The render child, stopped by the OS for twice its limit: wall time passes, its CPU time does not.
      const children = (pool as unknown as { children: { children: Set<{ proc: { pid: number } }> } }).children;
      const [child] = [...children.children];
      process.kill(child.proc.pid, 'SIGSTOP');
      await sleep(3_000);
      process.kill(child.proc.pid, 'SIGCONT');
      await expect(render).resolves.toMatchObject({ width: 16, height: 16 });
    });
  });
});
