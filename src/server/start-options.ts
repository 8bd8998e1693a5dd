import os from 'node:os';
import type { HttpTimeouts } from './app.js';
import type { ServerConfig } from './context.js';
import type { LinkBaseOptions } from './http/link-base.js';
import type { GroundingSource } from './engines/gateway/local-engines.js';
import { DEFAULT_CHAT_LIMITS, type ChatRateLimits } from './auth/rate-limit.js';
import type { ModelGateway } from './engines/gateway-types.js';
import type { JobLimits } from './jobs/limits.js';
import type { S3Options } from './files/s3/s3-config.js';
import { DEFAULT_CHROMIUM } from './engines/screenshot.js';
import { DEFAULT_MAX_KEYS_PER_USER } from './services/keys.service.js';
import type { Lookup } from './net/policy.js';
import { DEFAULT_AUDIT_RETENTION_DAYS } from './services/audit.service.js';
import type { LoopWatchOptions } from './loop-watch.js';
import { MCP_IDLE_SECONDS, MCP_MAX_SESSIONS_PER_KEY } from '../contract/mcp.js';
import { normalizeOrigin } from './mcp/origins.js';

/** What `facet serve` and the tests may set when they start a server, and the configuration it makes of them. */

export interface StartOptions {
  host?: string;
  port?: number;
  /** Ignored with memory: true. */
  dataDir?: string;
  memory?: boolean;
  /** postgres://…: the records live there instead of the data dir's SQLite file; files stay in the data dir. */
  databaseUrl?: string;
  adminKey?: string;
  logLevel?: string;
  /** A pino destination; defaults to stdout. Tests pass their own. */
  logStream?: NodeJS.WritableStream;
  accessTokenTtlSeconds?: number;
  version?: string;
  now?: () => Date;
  /** Replaces the shipped model catalog. */
  catalogFile?: string;
  upstreams?: ServerConfig['upstreams'];
  gatewayLimits?: ServerConfig['gatewayLimits'];
  defaultModel?: string;
  /** Where the grounded local model finds passages when a call brings none (the LiveDocs surface). */
  grounding?: GroundingSource;
  /** Chat rate limits; defaults in DEFAULT_CHAT_LIMITS. */
  chatRateLimits?: Partial<ChatRateLimits>;
  /** Default 3600: a conversation stream key is readable for an hour. */
  streamTtlSeconds?: number;
  /** Default 15. */
  streamHeartbeatSeconds?: number;
  /** Default 0. */
  answerChunkDelayMs?: number;
  /** A model gateway to use instead of the configured one (tests pass a fake). */
  gateway?: ModelGateway;
  /** Jobs run at once (default 2). */
  workers?: number;
  /** Chromium for screenshots (default FACET_CHROMIUM or /usr/bin/chromium). */
  chromiumPath?: string;
  /** Largest upload per file in MiB (default 20). */
  maxUploadMb?: number;
  /** Job lease length; heartbeats renew it every third of it (default 30 s). */
  jobLeaseMs?: number;
  /** Time budgets of job runs and the crash limit (`--job-time-budget`, `--job-max-crashes`). */
  jobLimits?: JobLimits;
  /** Usable API keys one user may hold (default 100). */
  maxKeysPerUser?: number;
  /** Where uploads and task outputs go (default <data dir>/files, or a temporary dir with memory); several instances on one PostgreSQL share one. */
  filesDir?: string;
  /** Keep files in an S3-compatible object store (`--object-store s3://BUCKET[/PREFIX]`) instead of the files dir, which then holds only work in progress. */
  objectStore?: S3Options;
  /** Days a completed slide or landing-page task keeps its outputs (default 30). */
  taskRetentionDays?: number;
  /** Days a stored response or thread is kept (default 30). */
  storedResponseDays?: number;
  /** Stored responses and thread messages one key may hold at once (default 10000). */
  storedResponsesPerKey?: number;
  /** Where start-up warnings go (default stderr). */
  warn?: (message: string) => void;
  /** Hosts, addresses and CIDR blocks the outbound fetch may reach although they are local or private. */
  allowFetchFrom?: string[];
  /** The resolver of the outbound fetch policy (tests inject one; default the system resolver). */
  fetchLookup?: Lookup;
  /** A compatible social data provider; the local social store otherwise. */
  socialUpstream?: ServerConfig['socialUpstream'];
  /** On close, how long the answers being written may take to finish (`--drain-timeout`, default 30 s). */
  drainTimeoutMs?: number;
  /** The address clients reach this platform at (`--public-url`): every link in answers names it. */
  publicUrl?: string;
  /** Proxies whose X-Forwarded-Proto/-Host are believed (`--trust-proxy`), when there is no public URL. */
  trustProxy?: LinkBaseOptions['trustProxy'];
  /** Serve the local console at /console (default true; `--no-console`). */
  console?: boolean;
  /** Serve MCP at /mcp (default true; `--no-mcp`). */
  mcp?: boolean;
  /** Seconds an idle MCP session lives (default 1800; `--mcp-idle-seconds`). */
  mcpIdleSeconds?: number;
  /** Browser origins /mcp answers besides local ones and the public URL's (`--mcp-allowed-origin`; `*` any). */
  mcpAllowedOrigins?: string[];
  /** How long a caller may take to send a request (defaults in DEFAULT_HTTP_TIMEOUTS). */
  httpTimeouts?: Partial<HttpTimeouts>;
  /** Days audit entries are kept (`--audit-retention-days`, default 365). */
  auditRetentionDays?: number;
  /** Watch the event loop from a worker thread (`facet serve` does; loop-watch.ts): log a stall, end the process past the limit. */
  loopWatch?: LoopWatchOptions;
  /** This instance's name in audit entries, logs and metrics (`--instance-id`; default host:port). */
  instanceId?: string;
  /** Serve /metrics (default true; `--no-metrics`). */
  metrics?: boolean;
  /** Serve /metrics on a listener of its own on this port instead of the main one (`--metrics-port`). */
  metricsPort?: number;
  /** The address of that listener (`--metrics-host`, default 127.0.0.1). */
  metricsHost?: string;
  /**
   * On close, how long the instance keeps serving new requests after /readyz turned 503, so the
   * balancer stops sending before they are refused (`--drain-delay`; default 0 here, 5 s for `facet serve`).
   */
  drainDelayMs?: number;
}

const INSTANCE_ID = /^[A-Za-z0-9._:@/-]{1,100}$/;

/** --instance-id as given, or an error naming what it may hold. */
export function checkInstanceId(id: string): string {
  if (!INSTANCE_ID.test(id))
    throw new Error(
      `--instance-id ${JSON.stringify(id)}: 1-100 letters, digits and . _ : @ / - (it names this instance in audit entries, logs and metrics)`,
    );
  return id;
}

/** The server configuration these options make, every default filled in. */
export function serverConfig(options: StartOptions, dataDir: string | null, filesDir: string): ServerConfig {
  return {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 8787,
    dataDir,
    filesDir,
    adminKey: options.adminKey,
    logLevel: options.logLevel ?? 'info',
    accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 30 * 86_400,
    version: options.version ?? '0.0.0',
    catalogFile: options.catalogFile,
    upstreams: options.upstreams ?? {},
    gatewayLimits: options.gatewayLimits,
    defaultModel: options.defaultModel,
    chatRateLimits: { ...DEFAULT_CHAT_LIMITS, ...options.chatRateLimits },
    streamTtlSeconds: options.streamTtlSeconds ?? 3600,
    streamHeartbeatSeconds: options.streamHeartbeatSeconds ?? 15,
    answerChunkDelayMs: options.answerChunkDelayMs ?? 0,
    workers: options.workers ?? 2,
    chromiumPath: options.chromiumPath ?? process.env.FACET_CHROMIUM ?? DEFAULT_CHROMIUM,
    maxUploadBytes: Math.round((options.maxUploadMb ?? 20) * 1024 * 1024),
    maxKeysPerUser: options.maxKeysPerUser ?? DEFAULT_MAX_KEYS_PER_USER,
    taskRetentionDays: options.taskRetentionDays,
    storedResponseDays: options.storedResponseDays,
    storedResponsesPerKey: options.storedResponsesPerKey,
    auditRetentionDays: options.auditRetentionDays ?? DEFAULT_AUDIT_RETENTION_DAYS,
    allowFetchFrom: options.allowFetchFrom ?? [],
    socialUpstream: options.socialUpstream,
    console: options.console ?? true,
    instanceId: options.instanceId ? checkInstanceId(options.instanceId) : `${os.hostname()}:${options.port ?? 8787}`,
    metrics:
      options.metrics === false
        ? 'off'
        : options.metricsPort !== undefined
          ? { host: options.metricsHost ?? '127.0.0.1', port: options.metricsPort }
          : 'main',
    mcp: {
      enabled: options.mcp ?? true,
      maxSessionsPerKey: MCP_MAX_SESSIONS_PER_KEY,
      idleSeconds: options.mcpIdleSeconds ?? MCP_IDLE_SECONDS,
      // A mistyped origin stops the start, as a bad --allow-fetch-from does.
      allowedOrigins: (options.mcpAllowedOrigins ?? []).map(normalizeOrigin),
    },
    subtitlesUpstream: process.env.FACET_UPSTREAM_SUBTITLES_BASE_URL
      ? {
          baseUrl: process.env.FACET_UPSTREAM_SUBTITLES_BASE_URL,
          apiKey: process.env.FACET_UPSTREAM_SUBTITLES_KEY || undefined,
          timeoutMs: 30_000,
        }
      : undefined,
  };
}
