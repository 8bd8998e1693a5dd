import net from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server/server.js';
import { parseExposition } from '../../helpers/prom-text.js';

/**
 * Issue 47: liveness while an instance drains. The main listener closes after the drain delay
 * (a balancer's new connection must be refused), so /healthz there stops answering; the
 * --metrics-port listener answers /healthz until the process is done, which is where docs/deploy.md's
 * Kubernetes livenessProbe points: a draining instance is never restarted for a failed probe.
 */
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const refused = (url: string) =>
  new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(url);
    const s = net.connect(Number(port), hostname, () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });

it('answers /healthz on the metrics port through the whole drain, after the main listener has closed', async () => {
  server = await startServer({ memory: true, port: 0, logLevel: 'silent', metricsPort: 0, drainTimeoutMs: 4000 });
  const { url, metricsUrl } = server;
  const health = metricsUrl!.replace(/\/metrics$/, '/healthz');
  const first = await fetch(health);
  expect(first.status).toBe(200);
  expect(await first.json()).toMatchObject({ status: 'ok', event_loop: { delay_p99_ms: expect.any(Number) } });
  expect((await fetch(`${url}/healthz`)).status).toBe(200);

  // A request in flight holds the drain open: its body is not all sent yet.
  const inFlight = net.connect(Number(new URL(url).port), '127.0.0.1');
  await new Promise((r) => inFlight.once('connect', r));
  inFlight.write(
    'POST /v2/livedocs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
  );
  inFlight.on('error', () => undefined);
  await new Promise((r) => setTimeout(r, 100));

  const closing = server.close({ drainDelayMs: 200 });
  const stopped = server;
  server = undefined;
  for (const deadline = Date.now() + 3000; !(await refused(url));) {
    if (Date.now() > deadline) throw new Error('the main listener never closed');
    await new Promise((r) => setTimeout(r, 50));
  }
  // Main listener closed, drain still going: liveness answers on the metrics port, and says so.
  const during = await fetch(health);
  expect(during.status).toBe(200);
  const m = parseExposition(await (await fetch(metricsUrl!)).text());
  expect(m.sum('facet_draining')).toBe(1);
  expect(m.sum('facet_ready')).toBe(0);

  inFlight.destroy();
  await closing;
  expect(await refused(health)).toBe(true);
  expect(stopped.metricsUrl).toBe(metricsUrl);
});
