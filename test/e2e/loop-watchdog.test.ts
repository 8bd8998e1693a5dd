import { execa } from 'execa';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startPlatform, type Platform } from '../helpers/platform.js';

/**
 * Issue 38: a stuck event loop is seen. A child process starts the loop watch (dist/server.js)
 * and then busy-loops, as a runaway request would: the watchdog thread logs the stall, and ends the
 * process past --max-loop-stall (which a SIGTERM handler on the stuck thread never could).
 */
const server = path.join(ROOT, 'dist/server.js');

function busyChild(maxStallSeconds: number, busyMs: number) {
  const script = `
    import { startLoopWatch } from ${JSON.stringify(server)};
    startLoopWatch({ maxStallSeconds: ${maxStallSeconds}, logAfterMs: 300 });
    setTimeout(() => {
      const end = Date.now() + ${busyMs};
      while (Date.now() < end);
      setTimeout(() => process.exit(0), 500);
    }, 300);
  `;
  return execa('node', ['--input-type=module', '-e', script], { reject: false, timeout: 60_000 });
}

describe('the event-loop watchdog', () => {
  it('a loop stuck past --max-loop-stall: the stall is logged and the process ends (SIGKILL)', async () => {
    const started = Date.now();
    const r = await busyChild(2, 50_000);
    expect(r.timedOut).toBe(false);
    expect(r.signal).toBe('SIGKILL');
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(r.stderr).toMatch(
      /facet serve: the event loop has been stuck for 0\.\d s: no request is answered meanwhile/,
    );
    expect(r.stderr).toMatch(/stuck for 2\.\d s, past --max-loop-stall 2: ending the process \(SIGKILL\)/);
  });

  it('with --max-loop-stall 0 a stall is only logged, and its end too', async () => {
    const r = await busyChild(0, 2_500);
    expect(r.signal).toBeUndefined();
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/the event loop has been stuck for \d\.\d s: no request is answered meanwhile\n/);
    expect(r.stderr).toMatch(/the event loop answers again after 2\.\d s stuck/);
    expect(r.stderr).not.toMatch(/ending the process/);
  });
});

describe('facet serve', () => {
  let p: Platform;
  beforeAll(async () => {
    p = await startPlatform({ args: ['--max-loop-stall', '30'] });
  });
  afterAll(() => p?.cleanup());

  it('/healthz reports the event loop delay', async () => {
    const r = await p.fetch('/healthz');
    expect(r.status).toBe(200);
    const body = (await r.json()) as { event_loop: Record<string, number> };
    expect(body.event_loop).toEqual({
      delay_p50_ms: expect.any(Number),
      delay_p99_ms: expect.any(Number),
      delay_max_ms: expect.any(Number),
    });
    expect(body.event_loop.delay_p99_ms).toBeGreaterThan(0);
    expect(body.event_loop.delay_max_ms).toBeGreaterThanOrEqual(body.event_loop.delay_p99_ms);
    // And each CPU lane's waits (the pool starts once the server listens).
    const lanes = (body as unknown as { cpu_lanes: Array<Record<string, unknown>> }).cpu_lanes;
    expect(lanes.map((l) => l.lane)).toEqual(['urgent', 'general', 'heavy']);
    expect(lanes[2]).toMatchObject({
      workers: expect.any(Number),
      wait_p50_ms: expect.any(Number),
      wait_p99_ms: expect.any(Number),
    });
  });

  it('--max-loop-stall takes seconds from 0; anything else is a usage error', async () => {
    const r = await p.cli(['serve', '--memory', '--max-loop-stall', 'soon']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--max-loop-stall/);
  });
});
