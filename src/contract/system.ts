import { z } from 'zod';
import { defineRoute } from './route.js';

export const Health = z.object({
  status: z.literal('ok'),
  version: z.string(),
  uptime_s: z.number(),
  event_loop: z
    .object({ delay_p50_ms: z.number(), delay_p99_ms: z.number(), delay_max_ms: z.number() })
    .describe('How late the event loop has been over the last minute (at most): a healthy one answers in milliseconds'),
  cpu_lanes: z
    .array(
      z.object({
        lane: z.enum(['urgent', 'general', 'heavy']),
        workers: z.number().int(),
        running: z.number().int(),
        queued: z.number().int(),
        wait_p50_ms: z.number(),
        wait_p99_ms: z.number(),
        wait_max_ms: z.number(),
      }),
    )
    .optional()
    .describe(
      "The CPU pool's lanes once it has started: workers, jobs running and waiting, and how long its last jobs waited for a worker",
    ),
});

export const healthz = defineRoute({
  id: 'system.health',
  method: 'GET',
  path: '/healthz',
  auth: 'none',
  family: 'image',
  tag: 'system',
  summary: 'Liveness',
  responses: { 200: Health },
});

export const Ready = z.object({
  status: z.literal('ready'),
  checks: z.object({ start: z.literal('ok'), database: z.literal('ok'), files: z.literal('ok') }),
});

export const readyz = defineRoute({
  id: 'system.ready',
  method: 'GET',
  path: '/readyz',
  auth: 'none',
  family: 'image',
  tag: 'system',
  summary:
    'Readiness: 200 when this instance can serve (started, not draining, database and object store reachable); 503 with Retry-After and the failing check otherwise',
  responses: { 200: Ready },
});

export const openapi = defineRoute({
  id: 'system.openapi',
  method: 'GET',
  path: '/openapi.json',
  auth: 'none',
  family: 'image',
  tag: 'system',
  summary: 'This API as an OpenAPI 3.1 document, generated from the contract',
  responses: { 200: { contentType: 'application/json', description: 'OpenAPI 3.1 document' } },
});

export const metrics = defineRoute({
  id: 'system.metrics',
  method: 'GET',
  path: '/metrics',
  auth: 'none',
  family: 'image',
  tag: 'system',
  summary:
    'Prometheus metrics of this instance (text exposition format): requests, jobs, pools, streams, readiness, usage. 404 when turned off (`--no-metrics`) or served on their own port (`--metrics-port`)',
  responses: { 200: { contentType: 'text/plain', description: 'Prometheus text format 0.0.4' } },
});

export const systemRoutes = [healthz, readyz, openapi, metrics];
