import type { Deps } from '../../deps.js';
import { usageError } from '../../exit-codes.js';
import { objectStoreOptions, type ObjectStoreFlags } from './object-store-options.js';
import type { TimeBudgets } from './job-options.js';
import type { StartOptions } from '../../../server/start-options.js';

/**
 * `facet serve`'s configuration: its flags, then the environment, turned into the server's
 * StartOptions. Parsing and checking only; start.ts starts the server with what this returns.
 */
export interface ServeOptions extends ObjectStoreFlags {
  host: string;
  port: number;
  dataDir?: string;
  memory?: boolean;
  databaseUrl?: string;
  filesDir?: string;
  adminKey?: string;
  logLevel: string;
  profile?: boolean;
  catalog?: string;
  upstreamOpenaiBaseUrl?: string;
  upstreamOpenaiKey?: string;
  upstreamAnthropicBaseUrl?: string;
  upstreamAnthropicKey?: string;
  upstreamTimeout?: number;
  betaUpstreamUrl?: string;
  betaUpstreamKey?: string;
  keyConcurrency?: number;
  defaultModel?: string;
  chatLimitKeyPerMinute: number;
  chatLimitUserPerMinute: number;
  chatLimitUserPerHour: number;
  streamTtl: number;
  streamHeartbeat: number;
  answerChunkDelay: number;
  workers: number;
  jobLease: number;
  jobMaxCrashes: number;
  jobTimeBudget?: TimeBudgets;
  chromium?: string;
  maxUploadMb: number;
  maxKeysPerUser: number;
  taskRetentionDays: number;
  storedResponseDays: number;
  storedResponsesPerKey: number;
  auditRetentionDays: number;
  requestTimeout: number;
  headersTimeout: number;
  keepAliveTimeout: number;
  allowFetchFrom?: string[];
  publicUrl?: string;
  trustProxy?: string;
  drainTimeout: number;
  maxLoopStall: number;
  drainDelay: number;
  instanceId?: string;
  /** False with --no-metrics. */
  metrics?: boolean;
  metricsPort?: number;
  metricsHost: string;
  socialUpstreamBaseUrl?: string;
  socialUpstreamKey?: string;
  exec?: string;
  seed?: string;
  logFormat?: 'pretty' | 'json';
  /** False with --no-console. */
  console?: boolean;
  /** False with --no-mcp. */
  mcp?: boolean;
  mcpIdleSeconds?: number;
  mcpAllowedOrigin?: string[];
}

/** Flags replace the environment's comma-separated list, as other options do. */
export function allowFetchFrom(opts: ServeOptions, env: NodeJS.ProcessEnv): string[] {
  if (opts.allowFetchFrom?.length) return opts.allowFetchFrom;
  return (env.FACET_ALLOW_FETCH_FROM ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * --trust-proxy (or FACET_TRUST_PROXY): `true` for any proxy, a number of hops, or addresses and
 * CIDR blocks (comma-separated; `loopback`, `uniquelocal` as in Express).
 */
function trustProxy(opts: ServeOptions, env: NodeJS.ProcessEnv): boolean | number | string[] | undefined {
  const value = (opts.trustProxy ?? env.FACET_TRUST_PROXY ?? '').trim();
  if (!value || value === 'false') return undefined;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The social data provider to pass social search through to; none means the local social store. */
function socialUpstream(opts: ServeOptions, env: NodeJS.ProcessEnv) {
  const baseUrl = opts.socialUpstreamBaseUrl ?? env.FACET_SOCIAL_UPSTREAM_BASE_URL;
  if (!baseUrl) return undefined;
  return {
    baseUrl,
    apiKey: (opts.socialUpstreamKey ?? env.FACET_SOCIAL_UPSTREAM_KEY) || undefined,
    timeoutMs: opts.upstreamTimeout,
  };
}

/** Options win over the environment; keys are best given by environment, out of the process list. */
function upstreams(opts: ServeOptions, env: NodeJS.ProcessEnv) {
  const one = (baseUrl: string | undefined, apiKey: string | undefined) => {
    if (!baseUrl) return undefined;
    try {
      new URL(baseUrl);
    } catch {
      throw usageError(`not a URL: ${baseUrl}`);
    }
    return { baseUrl, apiKey: apiKey || undefined, timeoutMs: opts.upstreamTimeout };
  };
  return {
    openai: one(
      opts.upstreamOpenaiBaseUrl ?? env.FACET_UPSTREAM_OPENAI_BASE_URL,
      opts.upstreamOpenaiKey ?? env.FACET_UPSTREAM_OPENAI_KEY,
    ),
    anthropic: one(
      opts.upstreamAnthropicBaseUrl ?? env.FACET_UPSTREAM_ANTHROPIC_BASE_URL,
      opts.upstreamAnthropicKey ?? env.FACET_UPSTREAM_ANTHROPIC_KEY,
    ),
    beta: one(opts.betaUpstreamUrl ?? env.FACET_BETA_UPSTREAM_URL, opts.betaUpstreamKey ?? env.FACET_BETA_UPSTREAM_KEY),
  };
}

/**
 * --database-url or FACET_DATABASE_URL: a postgres:// URL. --memory means nothing is kept, so it
 * refuses an explicit --database-url and ignores the environment's (a throwaway server stays one).
 */
export function databaseUrl(opts: ServeOptions, env: NodeJS.ProcessEnv): string | undefined {
  if (opts.memory && opts.databaseUrl)
    throw usageError(
      '--memory keeps nothing, but --database-url keeps the records in PostgreSQL: use --data-dir (for the files) with --database-url',
    );
  const url = opts.memory ? undefined : (opts.databaseUrl ?? (env.FACET_DATABASE_URL || undefined));
  if (url && !/^postgres(ql)?:\/\/./.test(url))
    throw usageError('--database-url must be a postgres:// (or postgresql://) URL');
  return url;
}

/** The server's options from the command's: shared by `facet serve` and `facet serve --exec`. */
export function startOptions(opts: ServeOptions, deps: Deps, dataDir: string | undefined): StartOptions {
  return {
    host: opts.host,
    port: opts.port,
    dataDir,
    memory: opts.memory,
    databaseUrl: databaseUrl(opts, deps.env),
    filesDir: opts.filesDir ?? (deps.env.FACET_FILES_DIR || undefined),
    objectStore: objectStoreOptions(opts, deps.env),
    adminKey: opts.adminKey ?? deps.env.FACET_ADMIN_KEY_SERVE,
    logLevel: opts.logLevel,
    version: deps.version,
    catalogFile: opts.catalog ?? deps.env.FACET_CATALOG,
    upstreams: upstreams(opts, deps.env),
    defaultModel: opts.defaultModel ?? deps.env.FACET_DEFAULT_MODEL,
    gatewayLimits: opts.keyConcurrency
      ? { perKeyConcurrency: opts.keyConcurrency, totalConcurrency: Math.max(512, opts.keyConcurrency) }
      : undefined,
    chatRateLimits: {
      perKeyPerMinute: opts.chatLimitKeyPerMinute,
      perUserPerMinute: opts.chatLimitUserPerMinute,
      perUserPerHour: opts.chatLimitUserPerHour,
    },
    streamTtlSeconds: opts.streamTtl,
    streamHeartbeatSeconds: opts.streamHeartbeat,
    answerChunkDelayMs: opts.answerChunkDelay,
    workers: opts.workers,
    jobLeaseMs: opts.jobLease * 1000,
    jobLimits: { maxCrashes: opts.jobMaxCrashes, timeBudgets: opts.jobTimeBudget },
    chromiumPath: opts.chromium ?? deps.env.FACET_CHROMIUM,
    maxUploadMb: opts.maxUploadMb,
    maxKeysPerUser: opts.maxKeysPerUser,
    taskRetentionDays: opts.taskRetentionDays,
    storedResponseDays: opts.storedResponseDays,
    storedResponsesPerKey: opts.storedResponsesPerKey,
    auditRetentionDays: opts.auditRetentionDays,
    allowFetchFrom: allowFetchFrom(opts, deps.env),
    socialUpstream: socialUpstream(opts, deps.env),
    publicUrl: (opts.publicUrl ?? deps.env.FACET_PUBLIC_URL) || undefined,
    drainTimeoutMs: opts.drainTimeout * 1000,
    loopWatch: { maxStallSeconds: opts.maxLoopStall },
    drainDelayMs: opts.drainDelay * 1000,
    instanceId: (opts.instanceId ?? deps.env.FACET_INSTANCE_ID) || undefined,
    metrics: opts.metrics !== false,
    metricsPort: opts.metricsPort,
    metricsHost: opts.metricsHost,
    trustProxy: trustProxy(opts, deps.env),
    console: opts.console !== false,
    mcp: opts.mcp !== false,
    mcpIdleSeconds: opts.mcpIdleSeconds,
    mcpAllowedOrigins: opts.mcpAllowedOrigin,
    httpTimeouts: {
      requestSeconds: opts.requestTimeout,
      headersSeconds: opts.headersTimeout,
      keepAliveSeconds: opts.keepAliveTimeout,
    },
  };
}
