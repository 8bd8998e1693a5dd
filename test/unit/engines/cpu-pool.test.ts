import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CpuPool } from '../../../src/server/engines/workers/pool.js';
import { parseTimeouts, type CpuLimits } from '../../../src/server/engines/workers/limits.js';
import { HttpError } from '../../../src/server/errors.js';
import { compose } from '../../../src/server/engines/illustration/compose.js';

// The pool runs the built worker (a worker thread cannot load the .ts sources): `npm run build` first.
const DIST = path.resolve(import.meta.dirname, '../../../dist');
const SCRIPTS = {
  worker: pathToFileURL(path.join(DIST, 'worker.js')),
  child: pathToFileURL(path.join(DIST, 'render-child.js')),
};
// Time limits far above any job here (the machine may be busy): limits are tested in cpu-pool-limits.test.ts.
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
const pool = new CpuPool(SCRIPTS, limits());
afterAll(() => pool.close());

/** Seconds of token counting on one worker. */
const LONG_TEXT = '日本語の文章'.repeat(200_000);

/** An object nested `depth` levels: more than structured cloning can follow. */
function nested(depth: number): unknown {
  let o: unknown = {};
  for (let i = 0; i < depth; i++) o = { a: o };
  return o;
}

/** The longest the event loop went without running a 10 ms timer while `work` was pending. */
async function longestStall(work: Promise<unknown>): Promise<number> {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 10);
  try {
    await work;
  } finally {
    clearInterval(timer);
  }
  return worst;
}

async function httpError(p: Promise<unknown>): Promise<HttpError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HttpError);
  return err as HttpError;
}

describe('the CPU worker pool', () => {
  it('has a built worker and render child to run', () => {
    expect(existsSync(SCRIPTS.worker), 'run npm run build first').toBe(true);
    expect(existsSync(SCRIPTS.child), 'run npm run build first').toBe(true);
  });

  it('counts tokens and renders PNGs off the event loop', async () => {
    let counted: unknown;
    const stall = await longestStall(
      (async () => (counted = await pool.run('count-tokens', { texts: [LONG_TEXT, 'hello world'] })))(),
    );
    expect(counted).toEqual([expect.any(Number), 2]);
    expect((counted as number[])[0]).toBeGreaterThan(100_000);
    // Loose: the whole count took seconds; the loop never waited for it.
    expect(stall).toBeLessThan(500);

    const { svg } = compose({ prompt: 'a lighthouse at dusk', width: 256, height: 128, index: 0, keywords: [] });
    const raster = (await pool.run('render-png', { svg })) as { png: Uint8Array; width: number; height: number };
    expect([raster.width, raster.height]).toEqual([256, 128]);
    expect(Buffer.from(raster.png).subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('fails a job with its own error, and stops a running job when its signal aborts', async () => {
    await expect(pool.run('extract-document', { kind: 'pdf', data: new Uint8Array([1, 2, 3]) })).rejects.toThrow();
    // A refusal crosses the worker boundary as a value, its code kept (the template import answers a 400 by it).
    await expect(pool.run('read-template-theme', { data: new Uint8Array([1, 2, 3]) })).resolves.toMatchObject({
      ok: false,
      refused: { code: 'INVALID_PARAMETER', message: expect.stringContaining('not a PowerPoint file') },
    });
    const abort = new AbortController();
    const long = pool.run('count-tokens', { texts: ['😀'.repeat(2_000_000)] }, { signal: abort.signal });
    setTimeout(() => abort.abort(new Error('caller left')), 50);
    await expect(long).rejects.toThrow('caller left');
    // The pool replaced the ended worker: the next job runs.
    await expect(pool.run('count-tokens', { texts: ['again'] })).resolves.toEqual([1]);
  });

  it('fails a job whose input is nested too deeply to send, and runs the next one (thread and render child)', async () => {
    // Before, postMessage threw after the job had taken its worker, which was never given back: every later job waited forever.
    const deep = await httpError(pool.run('count-tokens', nested(5_000) as { texts: string[] }));
    expect([deep.status, deep.code]).toEqual([422, 'INPUT_TOO_COMPLEX']);
    expect(deep.message).toContain('nested too deeply');
    await expect(pool.run('count-tokens', { texts: ['hello world'] })).resolves.toEqual([2]);

    const deepRender = await httpError(pool.run('render-png', { svg: nested(5_000) }));
    expect(deepRender.code).toBe('INPUT_TOO_COMPLEX');
    const { svg } = compose({ prompt: 'after', width: 64, height: 64, index: 0, keywords: [] });
    await expect(pool.run('render-png', { svg })).resolves.toMatchObject({ width: 64, height: 64 });
  });

  it('runs an urgent job on its own lane beside a long one, never a long job there', async () => {
    const laned = new CpuPool(SCRIPTS, limits(), { urgentLane: true });
    try {
      // Seconds of work on the one general worker.
      let longDone = false;
      const long = laned.run('count-tokens', { texts: [LONG_TEXT] }).then((n) => ((longDone = true), n));
      await expect(laned.run('count-tokens', { texts: ['hello world'] }, { urgent: true })).resolves.toEqual([2]);
      // It did not wait behind the long job.
      expect(longDone).toBe(false);
      // A second long job waits for the general worker, not the idle lane.
      let secondDone = false;
      const second = laned.run('count-tokens', { texts: ['x y z'] }).then((n) => ((secondDone = true), n));
      await new Promise((r) => setTimeout(r, 50));
      expect(secondDone).toBe(false);
      const longCount = (await long) as number[];
      expect(await second).toEqual([3]);
      expect(longCount[0]).toBeGreaterThan(100_000);
    } finally {
      await laned.close();
    }
  });
});
