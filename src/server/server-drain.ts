import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from './context.js';

/** How often, while draining, connections that went idle are closed. */
const IDLE_SWEEP_MS = 200;
/** How long after the listener closes the requests of connections it had just accepted may arrive. */
const FIRST_REQUEST_GRACE_MS = 250;

/**
 * A stop without a failed request, all of it within `timeoutMs`:
 * 1. /readyz answers 503 at once, and every answer not yet begun closes its connection;
 * 2. for `delayMs` new requests are still served, while the balancer notices and stops sending;
 * 3. then the listener closes and new requests are refused in their surface's shape with
 *    Retry-After (http/drain-gate.ts); a connection's first request already on its way is answered;
 *    idle connections close, while what is in flight (streams included) finishes;
 * 4. at `timeoutMs` whatever connection is still open is cut, and the rest of the teardown runs.
 * Why a stop could take a minute past its drain timeout before: a connection kept alive that was
 * busy when the close began is not idle then, and Node closes only the idle ones, once, so it held
 * the close until its keep-alive timeout; and a job waiting on the object store through an outage
 * held the job queue's stop (jobs/queue.ts stop() now hands it back at the deadline).
 */
export async function drain(
  app: FastifyInstance,
  ctx: Pick<AppContext, 'readiness'>,
  options: {
    delayMs: number;
    timeoutMs: number;
    teardown: (drainMs: number, endBy: number, connectionsEnded: Promise<void>) => Promise<void>;
  },
): Promise<void> {
  const started = Date.now();
  ctx.readiness.draining();
  const server = app.server;
  // Not closed during the delay: a balancer may be sending on an idle connection at that very
  // moment (and would not resend a POST). Answers close their connections meanwhile instead.
  let sweep: NodeJS.Timeout | undefined;
  const deadline = setTimeout(() => {
    app.log.warn(`drain: --drain-timeout of ${options.timeoutMs} ms reached; closing the connections still open`);
    server.closeAllConnections();
  }, options.timeoutMs);
  try {
    const delay = Math.min(options.delayMs, options.timeoutMs);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    // Closing a listener resets the connections the kernel completed that the loop has not accepted
    // yet (a loop busy as the delay ends holds many), and nginx does not resend a POST it wrote on
    // one. Closing from the check phase lets the poll phase before it accept them all first.
    await new Promise((resolve) => setImmediate(resolve));
    // The listener closes before anything is refused: a balancer's new connection is then refused
    // by the kernel, which nginx retries for any method. net's close, not http's: http's also drops
    // idle connections at once, among them one just accepted whose request is not yet read.
    const connectionsEnded = new Promise<void>((resolve) => server.once('close', () => resolve()));
    net.Server.prototype.close.call(server);
    ctx.readiness.refuse();
    // Requests already on their way on connections accepted before are read and answered first
    // (with no connection open, there is nothing to wait for).
    const open = await new Promise<number>((resolve) => server.getConnections((err, n) => resolve(err ? 1 : n)));
    if (open > 0)
      await new Promise((resolve) => setTimeout(resolve, Math.min(FIRST_REQUEST_GRACE_MS, options.timeoutMs)));
    server.closeIdleConnections();
    sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    await options.teardown(
      Math.max(0, options.timeoutMs - (Date.now() - started)),
      started + options.timeoutMs,
      connectionsEnded,
    );
  } finally {
    clearInterval(sweep);
    clearTimeout(deadline);
  }
}
