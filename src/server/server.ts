import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { makeNewFilesPrivate, preparePrivateDataDir } from './files/private.js';
import os from 'node:os';
import path from 'node:path';
import type { FastifyServerOptions } from 'fastify';
import { buildApp, DEFAULT_HTTP_TIMEOUTS, type HttpTimeouts } from './app.js';
import type { AppContext, ServerConfig } from './context.js';
import { openStore } from './store/store.js';
import { lockDataDir } from './data-dir-lock.js';
import { serializeRequest } from './http/log-redaction.js';
import { tokenSecret } from './auth/tokens.js';
import { VerifiedTokenCache } from './auth/token-cache.js';
import { bootstrapRecords, writeBootstrapFile, type BootstrapResult } from './bootstrap.js';
import { installLinkBase, normalizePublicUrl, proxyTrust, type LinkBaseOptions } from './http/link-base.js';
import { Readiness } from './readiness.js';
import { loadCatalog } from './engines/gateway/catalog.js';
import { ModelDirectory } from './engines/gateway/directory.js';
import { createGateway } from './engines/gateway/gateway.js';
import { closeCpuPool, warmCpuPool } from './engines/workers/index.js';
import { ground } from './services/grounding.service.js';
import { analyzeQuery } from './engines/query-analysis.js';
import { visibleIds } from './store/livedocs.repo.js';
import type { GroundingSource } from './engines/gateway/local-engines.js';
import { DEFAULT_CHAT_LIMITS, type ChatRateLimits } from './auth/rate-limit.js';
import type { ModelGateway } from './engines/gateway-types.js';
import { StreamHub } from './streams/hub.js';
import { deleteExpiredBefore } from './store/streams.repo.js';
import { JobQueue } from './jobs/queue.js';
import type { JobLimits } from './jobs/limits.js';
import { registerImageTasks } from './services/image-task.runner.js';
import { registerReviewTasks } from './services/beta-reviews.runner.js';
import { registerBatchScrape } from './services/batch-scrape.runner.js';
import { registerSlides } from './services/slides.runner.js';
import { sweepExpiredTasks } from './services/doc-tasks.service.js';
import { sweepStoredResponses } from './services/model-api/stored.js';
import { busOf } from './store/cache-bus.js';
import { openFileStore, filesMismatch } from './files/open-file-store.js';
import type { S3Options } from './files/s3/s3-config.js';
import { registerLandingPages } from './services/landing-page.runner.js';
import { DEFAULT_CHROMIUM } from './engines/screenshot.js';
import { DEFAULT_MAX_KEYS_PER_USER } from './services/keys.service.js';
import { FetchPolicy, type Lookup } from './net/policy.js';
import { RequestLog } from './logs/request-log.js';
import { DEFAULT_AUDIT_RETENTION_DAYS, pruneAudit } from './services/audit.service.js';
import { recordExpiredKeys } from './services/key-expiry-audit.js';

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
  /** How long a caller may take to send a request (defaults in DEFAULT_HTTP_TIMEOUTS). */
  httpTimeouts?: Partial<HttpTimeouts>;
  /** Days audit entries are kept (`--audit-retention-days`, default 365). */
  auditRetentionDays?: number;
}

const warnOnStderr = (message: string) => void process.stderr.write(`${message}\n`);

export interface RunningServer {
  url: string;
  ctx: AppContext;
  bootstrap: BootstrapResult;
  /** Stops accepting, lets in-flight requests finish, then closes the database. */
  close(): Promise<void>;
}

/** The embedded platform behind one small handle, used alike by `facet serve` and every test. */
/** Asked of the kernel for the accept queue; it grants at most net.core.somaxconn (4096 here). */
export const LISTEN_BACKLOG = 65_535;

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const memory = options.memory ?? false;
  const dataDir = memory ? null : (options.dataDir ?? null);
  if (!memory && !dataDir) throw new Error('startServer needs dataDir or memory: true');
  // The data dir is made (or tightened) private before anything is written inside it.
  makeNewFilesPrivate();
  const tightened = dataDir ? preparePrivateDataDir(dataDir) : 0;
  if (tightened > 0)
    (options.warn ?? warnOnStderr)(
      `facet serve: ${dataDir} was readable by other users; made ${tightened} files and folders private (0700 folders, 0600 files)`,
    );
  const scratch = memory ? mkdtempSync(path.join(os.tmpdir(), 'facet-mem-')) : null;
  const filesDir = options.filesDir ?? scratch ?? path.join(dataDir!, 'files');
  mkdirSync(filesDir, { recursive: true });

  const config: ServerConfig = {
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
    subtitlesUpstream: process.env.FACET_UPSTREAM_SUBTITLES_BASE_URL
      ? {
          baseUrl: process.env.FACET_UPSTREAM_SUBTITLES_BASE_URL,
          apiKey: process.env.FACET_UPSTREAM_SUBTITLES_KEY || undefined,
          timeoutMs: 30_000,
        }
      : undefined,
  };
  const publicUrl = options.publicUrl ? normalizePublicUrl(options.publicUrl) : undefined;
  // A malformed allowance stops the start, like a bad catalog.
  const fetchPolicy = new FetchPolicy(config.allowFetchFrom, options.fetchLookup);
  // A bad catalog file stops the start before anything is opened.
  const catalog = loadCatalog(config.catalogFile);
  if (config.defaultModel && catalog.get(config.defaultModel)?.model_kind !== 'chat') {
    throw new Error(`--default-model ${config.defaultModel} is not a chat model of the catalog`);
  }
  const unlock = dataDir ? lockDataDir(dataDir) : () => undefined;
  let store: Awaited<ReturnType<typeof openStore>>;
  try {
    store = await openStore({ dataDir, databaseUrl: options.databaseUrl });
  } catch (err) {
    unlock();
    throw err;
  }
  let files: AppContext['files'];
  try {
    files = await openFileStore(filesDir, options.objectStore);
    const bus = busOf(store.db);
    // An object store is asked at every start, so one that cannot be reached or read stops it here;
    // a local files dir only where instances compare (no identity file appears on a lone SQLite).
    const filesId = bus || files.kind !== 'local' ? await files.identity() : null;
    // Several instances on one PostgreSQL must share their files (uploads, task outputs).
    const mismatch = bus && filesId ? filesMismatch(files, filesId, await bus.claimFilesDir(filesId)) : null;
    if (mismatch) throw new Error(mismatch);
  } catch (err) {
    await store.close();
    unlock();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    throw err;
  }
  const now = options.now ?? (() => new Date());
  let logError: (err: unknown, where: string) => void = () => {};
  const jobs = new JobQueue({
    db: store.db,
    now,
    concurrency: config.workers,
    leaseMs: options.jobLeaseMs,
    limits: options.jobLimits,
    // A SQLite file belongs to this one process: whatever is "running" at start-up was cut short.
    recoverAllRunningAtStart: store.dialect === 'sqlite',
    onError: (err, where) => logError(err, where),
  });
  const db = store.db;
  const modelDirectory = new ModelDirectory(catalog, db);
  const gateway = createGateway({
    ctx: { db, now },
    directory: modelDirectory,
    upstreams: config.upstreams ?? {},
    limits: config.gatewayLimits,
    // /api/v1 calls of the grounded model search the caller's own and shared LiveDocs.
    grounding:
      options.grounding ??
      (async (query, scope) => {
        const found = await ground(
          { db },
          analyzeQuery(query),
          { livedocIds: await visibleIds(db, scope.userId) },
          { question: query },
        );
        return found.passages.map((p) => ({ id: String(p.ref), title: p.title, link: p.link, content: p.content }));
      }),
    defaultModel: config.defaultModel,
  });
  const ctx: AppContext = {
    config,
    store,
    db,
    now,
    tokenSecret: await tokenSecret(db),
    tokenCache: new VerifiedTokenCache(),
    baseUrl: '',
    readiness: new Readiness(db, files),
    streams: new StreamHub(db),
    jobs,
    fetchPolicy,
    files,
    // A gateway given by the caller (tests with a fake) wins over the configured one.
    gateway: options.gateway ?? gateway,
    modelDirectory,
    requestLog: new RequestLog(db, (err) => logError(err, 'request log')),
  };
  await ctx.streams.closeOrphans();
  registerImageTasks(ctx);
  registerReviewTasks(ctx);
  registerBatchScrape(ctx);
  registerSlides(ctx);
  registerLandingPages(ctx);

  const logger: FastifyServerOptions['logger'] =
    config.logLevel === 'silent'
      ? false
      : {
          level: config.logLevel,
          stream: options.logStream,
          redact: [
            'req.headers.authorization',
            'req.headers["x-api-key"]',
            'req.headers["x-admin-key"]',
            'req.headers.cookie',
          ],
          // Signed download links and stream keys travel in the URL.
          serializers: { req: serializeRequest },
        };
  const trusted = proxyTrust({ publicUrl, trustProxy: options.trustProxy });
  const app = buildApp(ctx, {
    logger,
    timeouts: { ...DEFAULT_HTTP_TIMEOUTS, ...options.httpTimeouts },
    trustProxy: trusted,
  });
  logError = (err, where) => app.log.error({ err }, `job queue: ${where}`);
  let listenBase = '';
  const linkBase = installLinkBase(app, publicUrl, trusted, () => listenBase);
  Object.defineProperty(ctx, 'baseUrl', { get: linkBase, enumerable: true });

  let sweeper: NodeJS.Timeout | undefined;
  let orphanSweeper: NodeJS.Timeout | undefined;
  /** With a drain, the answers being written may finish first (within drainMs) before readers are ended. */
  const teardown = async (drainMs = 0) => {
    clearInterval(sweeper);
    clearInterval(orphanSweeper);
    // Stops taking connections; a new request on an open one answers 503. Requests in flight go on.
    const closed = app.close();
    const unfinished = await ctx.streams.drainWriters(drainMs);
    if (unfinished > 0)
      app.log.warn(
        `drain: ${unfinished} answer(s) still being written after ${drainMs} ms are cut off; the orphan sweep (this instance at its next start, or another) ends their streams with an error event`,
      );
    ctx.streams.stopFollowing();
    ctx.streams.endReaders();
    ctx.requestLog.stop();
    ctx.requestLog.endReaders();
    await closed;
    await jobs.stop();
    await gateway.close();
    await closeCpuPool();
    await store.close();
    unlock();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  };
  // Whatever can fail runs before the server listens, or stops it again: a start that fails ends
  // with an error (and `facet serve` with a non-zero exit), never as a half-started instance that
  // answers /healthz but runs no jobs.
  let boot: BootstrapResult;
  try {
    jobs.checkLimits(); // a mistyped --job-time-budget kind stops the start cleanly
    const records = await bootstrapRecords(ctx);
    // Node's default accept queue (511) drops the connections of a burst beyond it, and the
    // client's kernel retries them 1, 3 and 7 s later: thousands of streams opened at once waited
    // seconds for their first event. The kernel caps this at net.core.somaxconn.
    await app.listen({ host: config.host, port: config.port, backlog: LISTEN_BACKLOG });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    listenBase = `http://${host === '0.0.0.0' ? '127.0.0.1' : host === '[::]' ? '[::1]' : host}:${port}`;
    boot = writeBootstrapFile(ctx, records, listenBase);
    warmCpuPool();
    // Expired stream keys are dropped a while after expiry (410 until then, 404 after).
    // Completed slide and landing-page tasks past their retention window lose their outputs (EXPIRED).
    const sweep = () => {
      const cutoff = new Date(ctx.now().getTime() - 86_400_000).toISOString();
      deleteExpiredBefore(ctx.db, cutoff).catch(() => undefined);
      sweepExpiredTasks(ctx).catch((err) => app.log.error({ err }, 'task retention sweep failed'));
      sweepStoredResponses(ctx).catch((err) => app.log.error({ err }, 'stored response retention sweep failed'));
      // Audit entries past their retention go; keys that expired since the last sweep get their entry.
      pruneAudit(ctx, config.auditRetentionDays).catch((err) => app.log.error({ err }, 'audit retention sweep failed'));
      recordExpiredKeys(ctx).catch((err) => app.log.error({ err }, 'recording expired keys failed'));
    };
    sweep();
    sweeper = setInterval(sweep, 600_000);
    sweeper.unref();
    // Several instances on one PostgreSQL: readers here follow streams written elsewhere, and the
    // streams of an instance that died (kill -9, lost machine) end with an error instead of hanging.
    ctx.streams.startFollowing();
    ctx.requestLog.startFollowing();
    orphanSweeper = busOf(ctx.db)
      ? setInterval(
          () => ctx.streams.closeOrphans().catch((err) => app.log.error({ err }, 'closing orphaned streams failed')),
          15_000,
        )
      : undefined;
    orphanSweeper?.unref();
    await jobs.start();
  } catch (err) {
    await teardown().catch(() => undefined);
    throw err;
  }
  ctx.readiness.started();

  let closing: Promise<void> | undefined;
  return {
    url: listenBase,
    ctx,
    bootstrap: boot,
    close() {
      closing ??= (async () => {
        ctx.readiness.draining();
        await teardown(options.drainTimeoutMs ?? 30_000);
      })();
      return closing;
    },
  };
}
