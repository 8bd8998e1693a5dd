import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../errors.js';
import { shapeError } from './error-shape.js';
import type { ErrorFamily } from '../../contract/route.js';

/** Seconds a refused caller is asked to wait: another instance answers at once through the balancer. */
export const DRAIN_RETRY_AFTER_S = 1;

/** Liveness, readiness and metrics answer to the end: the orchestrator and the scraper still ask. */
const ALWAYS_ANSWERED = new Set(['/healthz', '/readyz', '/metrics']);

export interface DrainState {
  /** From SIGTERM on: every answer closes its connection, so the balancer's kept-alive ones go. */
  readonly isDraining: boolean;
  /**
   * After the drain delay: new requests are refused (503 + Retry-After), in-flight ones go on. New
   * means on a connection accepted since, or the next one on a kept-alive connection.
   */
  readonly isRefusing: boolean;
  /** Runs `fn` when the drain begins. */
  onDraining(fn: () => void): void;
}

/**
 * The front door during a drain (server.ts close()). Fastify's own refusal while closing
 * (`return503OnClosing`) answers in its own body; this one answers in the surface's error shape,
 * with Retry-After, and before any work is done, so a balancer or client may send it elsewhere.
 */
export function installDrainGate(
  app: FastifyInstance,
  state: DrainState,
  familyOf: (request: FastifyRequest) => ErrorFamily,
  onRefused: () => void,
): void {
  // Answers not yet begun: when the drain starts they too close their connection, so a client
  // never sends its next request on a connection the drain is about to close.
  const open = new Set<ServerResponse>();
  // Connections accepted before the refusal began that have not carried a request yet: the first
  // request of such a connection was on its way when the listener closed (server-drain.ts), and a
  // balancer counts it as sent, so it would not send a POST elsewhere; it is answered.
  const unused = new WeakSet<Socket>();
  app.server.on('connection', (socket: Socket) => {
    if (!state.isRefusing) unused.add(socket);
  });
  // A callback hook: it runs on every request, and a promise per request costs.
  app.addHook('onRequest', (request, reply, done) => {
    const socket = request.raw.socket;
    const firstOnConnection = unused.delete(socket);
    if (!state.isDraining) {
      const res = reply.raw;
      open.add(res);
      res.once('close', () => open.delete(res));
      return done();
    }
    // Set on the raw response: event streams write their head there, and it keeps this header.
    reply.raw.setHeader('connection', 'close');
    const path = request.url.split('?')[0];
    if (!state.isRefusing || firstOnConnection || ALWAYS_ANSWERED.has(path)) return done();
    onRefused();
    const shaped = shapeError(
      familyOf(request),
      new HttpError(
        'SERVICE_UNAVAILABLE',
        'this instance is shutting down; send the request again (another instance answers it)',
        {
          status: 503,
          headers: { 'retry-after': String(DRAIN_RETRY_AFTER_S) },
        },
      ),
      request.id,
    );
    reply.code(shaped.status).headers(shaped.headers).send(shaped.body);
  });
  state.onDraining(() => {
    for (const res of open) if (!res.headersSent) res.setHeader('connection', 'close');
  });
}
