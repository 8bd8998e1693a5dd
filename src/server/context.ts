import type { Kysely } from 'kysely';
import type { Database } from './store/database.js';
import type { Store } from './store/store.js';
import type { VerifiedTokenCache } from './auth/token-cache.js';
import type { ModelGateway } from './engines/gateway-types.js';
import type { ModelDirectory } from './engines/gateway/directory.js';
import type { UpstreamConfig } from './providers/upstream-http.js';
import type { ChatRateLimits } from './auth/rate-limit.js';
import type { StreamHub } from './streams/hub.js';
import type { JobQueue } from './jobs/queue.js';
import type { FetchPolicy } from './net/policy.js';
import type { SocialUpstreamConfig } from './providers/social/upstream.js';
import type { FileStore } from './files/file-store.js';
import type { Readiness } from './readiness.js';
import type { RequestLog } from './logs/request-log.js';
import type { ServerMetrics } from './metrics/server-metrics.js';

export interface ServerConfig {
  host: string;
  port: number;
  /** null with --memory: nothing is written to disk but temporary task files. */
  dataDir: string | null;
  /** Where uploads and task outputs go (a temp dir with --memory). */
  filesDir: string;
  adminKey?: string;
  logLevel: string;
  accessTokenTtlSeconds: number;
  version: string;
  /** A replacement for the shipped model catalog (`facet serve --catalog FILE`). */
  catalogFile?: string;
  /** Upstreams that serve catalog models whose api is openai or anthropic. */
  /** beta: the compatible data provider the /v1/beta endpoints forward to (`--beta-upstream-url`); local data otherwise. */
  upstreams?: { openai?: UpstreamConfig; anthropic?: UpstreamConfig; beta?: UpstreamConfig };
  /** The model features use when they name none (default facet-grounded). */
  defaultModel?: string;
  /** Concurrent model calls allowed per key and in total. */
  gatewayLimits?: { perKeyConcurrency: number; totalConcurrency: number };
  /** Chat rate limits (spec 8); `facet serve --chat-limit-*`. */
  chatRateLimits: ChatRateLimits;
  /** How long a conversation stream key can be read after it was created. */
  streamTtlSeconds: number;
  /** Interval of SSE heartbeat comments on idle conversation streams. */
  streamHeartbeatSeconds: number;
  /** Pause between answer chunks of the local writer, to pace streams like a model would (0 = none). */
  answerChunkDelayMs: number;
  /** Jobs run at once by this server (`--workers`). */
  workers: number;
  /** The Chromium the screenshot engine drives (`--chromium`, FACET_CHROMIUM). */
  chromiumPath: string;
  /** Largest accepted upload per file, in bytes (`--max-upload-mb`). */
  maxUploadBytes: number;
  /** Usable API keys one user may hold (`--max-keys-per-user`). */
  maxKeysPerUser: number;
  /** Exceptions to the outbound fetch policy (`--allow-fetch-from`, FACET_ALLOW_FETCH_FROM). */
  allowFetchFrom: string[];
  /** A compatible social data provider to pass social search through to (`--social-upstream`); local store otherwise. */
  socialUpstream?: SocialUpstreamConfig;
  /** Days a completed slide or landing-page task keeps its outputs before it is EXPIRED (`--task-retention-days`). */
  taskRetentionDays?: number;
  /** Days a stored response or thread is kept (`--stored-response-days`, default 30). */
  storedResponseDays?: number;
  /** Stored responses and thread messages one key may hold at once (`--stored-responses-per-key`, default 10000). */
  storedResponsesPerKey?: number;
  /** Days an audit entry is kept before the retention sweep deletes it (`--audit-retention-days`, default 365). */
  auditRetentionDays: number;
  /** Whether /console serves the local console (`--no-console` turns it off). */
  console: boolean;
  /**
   * /mcp (`--no-mcp` turns it off): sessions one key may hold, how long an idle one lives, and the
   * browser origins it answers besides local ones and the link base's (`--mcp-allowed-origin`).
   */
  mcp: { enabled: boolean; maxSessionsPerKey: number; idleSeconds: number; allowedOrigins: string[] };
  /** The subtitle upstream asked when the store has nothing (env FACET_UPSTREAM_SUBTITLES_BASE_URL / _KEY). */
  subtitlesUpstream?: UpstreamConfig;
  /**
   * This instance's name in audit entries, logs and metrics (`--instance-id`, default host:port);
   * the port is the one listened on once known.
   */
  instanceId: string;
  /** Where /metrics is served: on the main port, on a listener of its own (`--metrics-port`), or not at all. */
  metrics: 'main' | 'off' | { host: string; port: number };
}

/** What every service needs, built once per server and handed down; no module singletons. */
export interface AppContext {
  config: ServerConfig;
  store: Store;
  db: Kysely<Database>;
  now: () => Date;
  /** HMAC secret for access tokens, read once at start-up. */
  tokenSecret: Uint8Array;
  tokenCache: VerifiedTokenCache;
  /**
   * Where links in answers point: `--public-url`, the trusted proxy's forwarded address for the
   * request being served, or the address the server listens on (http/link-base.ts).
   */
  baseUrl: string;
  /** Whether this instance can serve now (`/readyz`). */
  readiness: Readiness;
  /** The model gateway every model-like feature generates through. */
  gateway: ModelGateway;
  /** The model catalog with the administrators' list/hide decisions. */
  modelDirectory: ModelDirectory;
  /** Conversation event logs: durable append and replay, plus live fan-out in this process. */
  streams: StreamHub;
  /** The durable job queue every async task runs through. */
  jobs: JobQueue;
  /** The outbound fetch policy every fetch made on a user's behalf goes through (net/). */
  fetchPolicy: FetchPolicy;
  /** Where every stored file goes: the files dir, or the object store (`--object-store`). */
  files: FileStore;
  /** The live request log (`facet logs tail`): a bounded ring in memory, shared across instances on PostgreSQL. */
  requestLog: RequestLog;
  /** This server's Prometheus metrics (its own registry). */
  metrics: ServerMetrics;
}
