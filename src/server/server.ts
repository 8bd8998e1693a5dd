import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { preparePrivateDataDir } from './files/private.js';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import { buildApp, DEFAULT_HTTP_TIMEOUTS } from './app.js';
import type { AppContext } from './context.js';
import { openStore } from './store/store.js';
import { lockDataDir } from './data-dir-lock.js';
import { redactSecrets, serializeRequest } from './http/log-redaction.js';
import { tokenSecret } from './auth/tokens.js';
import { VerifiedTokenCache } from './auth/token-cache.js';
import { bootstrapRecords, writeBootstrapFile, type BootstrapResult } from './bootstrap.js';
import { installLinkBase, normalizePublicUrl, proxyTrust } from './http/link-base.js';
import { Readiness } from './readiness.js';
import { loadCatalog } from './engines/gateway/catalog.js';
import { ModelDirectory } from './engines/gateway/directory.js';
import { closeCpuPool, warmCpuPool } from './engines/workers/index.js';
import { StreamHub } from './streams/hub.js';
import { JobQueue } from './jobs/queue.js';
import { registerImageTasks } from './services/image-task.runner.js';
import { registerReviewTasks } from './services/beta-reviews.runner.js';
import { registerBatchScrape } from './services/batch-scrape.runner.js';
import { registerSlides } from './services/slides.runner.js';
import { busOf } from './store/cache-bus.js';
import { openFileStore, filesMismatch } from './files/open-file-store.js';
import { registerLandingPages } from './services/landing-page.runner.js';
import { FetchPolicy } from './net/policy.js';
import { RequestLog } from './logs/request-log.js';
import { serverConfig, type StartOptions } from './start-options.js';
import { serverGateway } from './server-gateway.js';
import { startSweeps } from './server-sweeps.js';
import { loopDelayMonitor, startLoopWatch, type LoopWatch } from './loop-watch.js';
import { healthBody } from './routes/system.js';
import { drain } from './server-drain.js';
import { ServerMetrics } from './metrics/server-metrics.js';
import { installScrapeGauges } from './metrics/scrape-gauges.js';
import { installProcessGauges } from './metrics/process-sample.js';
import { zeroKnownSeries } from './metrics/known-series.js';
import { listenForMetrics, type MetricsListener } from './metrics/metrics-listener.js';

const warnOnStderr = (message: string) => void process.stderr.write(`${message}\n`);

export interface RunningServer {
  url: string;
  ctx: AppContext;
  bootstrap: BootstrapResult;
  /** The server's logger (pino): `facet serve` sends process warnings through it. */
  log: FastifyBaseLogger;
  /** Where /metrics is served with `--metrics-port` (its own listener). */
  metricsUrl?: string;
  /**
   * Drains (server-drain.ts): readiness 503 at once, new requests served for the drain delay, then
   * refused while in-flight ones finish, all within the drain timeout; then closes the database.
   */
  close(how?: { drainDelayMs?: number }): Promise<void>;
}

/** Asked of the kernel for the accept queue; it grants at most net.core.somaxconn (4096 here). */
export const LISTEN_BACKLOG = 65_535;

/** The embedded platform behind one small handle, used alike by `facet serve` and every test. */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const memory = options.memory ?? false;
  const dataDir = memory ? null : (options.dataDir ?? null);
  if (!memory && !dataDir) throw new Error('startServer needs dataDir or memory: true');
  // The data dir is made (or tightened) private before anything is written inside it. The umask
  // that makes every new file private is the CLI's to set (`facet serve`): this process may be an
  // embedder's, whose other files are not ours to decide.
  const tightened = dataDir ? preparePrivateDataDir(dataDir) : 0;
  if (tightened > 0)
    (options.warn ?? warnOnStderr)(
      `facet serve: ${dataDir} was readable by other users; made ${tightened} files and folders private (0700 folders, 0600 files)`,
    );
  const scratch = memory ? mkdtempSync(path.join(os.tmpdir(), 'facet-mem-')) : null;
  const filesDir = options.filesDir ?? scratch ?? path.join(dataDir!, 'files');
  mkdirSync(filesDir, { recursive: true });

  const config = serverConfig(options, dataDir, filesDir);
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
  const metrics = new ServerMetrics(config.instanceId);
  let files: AppContext['files'];
  try {
    files = await openFileStore(filesDir, options.objectStore, {
      request: (operation) => metrics.objectStoreRequests.inc({ operation }),
      retry: (operation) => metrics.objectStoreRetries.inc({ operation }),
      error: (operation) => metrics.objectStoreErrors.inc({ operation }),
    });
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
    observer: {
      claimed: (kind, waitedMs) => metrics.jobClaimLatency.observe({ kind }, waitedMs / 1000),
      finished: (kind, outcome) => metrics.jobsFinished.inc({ kind, outcome }),
    },
  });
  const db = store.db;
  const modelDirectory = new ModelDirectory(catalog, db);
  const gateway = serverGateway({ db, now, metrics }, modelDirectory, config, options.grounding);
  // Set once the app is built (http/link-base.ts). The getter is part of the literal: redefining a
  // property of a made object turns it into a dictionary, and every service reads ctx on every request.
  let linkBase: () => string = () => '';
  const ctx: AppContext = {
    config,
    store,
    db,
    now,
    tokenSecret: await tokenSecret(db),
    tokenCache: new VerifiedTokenCache(),
    get baseUrl() {
      return linkBase();
    },
    readiness: new Readiness(db, files),
    streams: new StreamHub(db),
    jobs,
    fetchPolicy,
    files,
    // A gateway given by the caller (tests with a fake) wins over the configured one.
    gateway: options.gateway ?? gateway,
    modelDirectory,
    requestLog: new RequestLog(
      db,
      (err) => logError(err, 'request log'),
      () => config.instanceId ?? null,
    ),
    metrics,
  };
  await ctx.streams.closeOrphans();
  registerImageTasks(ctx);
  registerReviewTasks(ctx);
  registerBatchScrape(ctx);
  registerSlides(ctx);
  registerLandingPages(ctx);
  // Nothing reads the gauges with --no-metrics, so nothing samples them either.
  const stopGauges: Array<() => void> = [];
  if (config.metrics !== 'off') {
    stopGauges.push(
      installScrapeGauges(metrics, {
        db,
        readiness: ctx.readiness,
        now,
        jobsRunning: () => jobs.runningKinds(),
        streams: () => ({
          readers: ctx.streams.readers.size,
          writers: ctx.streams.writerCount,
          tails: ctx.requestLog.readerCount,
        }),
      }),
      installProcessGauges(metrics),
    );
    zeroKnownSeries(metrics, {
      jobKinds: jobs.kinds(),
      objectStore: files.kind !== 'local',
      models: catalog.models.map((m) => ({ id: m.id, kind: m.model_kind })),
    });
  }

  const logger: FastifyServerOptions['logger'] =
    config.logLevel === 'silent'
      ? false
      : {
          level: config.logLevel,
          stream: options.logStream,
          // Every line names the instance (`--instance-id`), as audit entries and metrics do.
          mixin: () => ({ instance: config.instanceId }),
          redact: [
            'req.headers.authorization',
            'req.headers["x-api-key"]',
            'req.headers["x-admin-key"]',
            'req.headers.cookie',
          ],
          // Signed download links and stream keys travel in the URL.
          serializers: { req: serializeRequest },
          // Whatever a line holds (an error's message quoting a URL, a header value), nothing shaped
          // like a key, session or token is written (issue 38).
          hooks: { streamWrite: redactSecrets },
        };
  const trusted = proxyTrust({ publicUrl, trustProxy: options.trustProxy });
  const app = buildApp(ctx, {
    logger,
    timeouts: { ...DEFAULT_HTTP_TIMEOUTS, ...options.httpTimeouts },
    trustProxy: trusted,
  });
  logError = (err, where) => app.log.error({ err }, `job queue: ${where}`);
  ctx.streams.onOutage = (err, tries) => {
    if (tries === 0)
      app.log.warn(
        { err },
        'stream writer: the database cannot be reached; events wait and are written once it is back',
      );
  };
  // One line per change of readiness, not one per probe: a balancer probes every second or two.
  ctx.readiness.onChange(({ ready, checks }) => {
    const failing = Object.entries(checks).filter(([, v]) => v !== 'ok' && v !== 'not checked');
    if (ready) app.log.info('readiness: ready');
    else if (checks.start !== 'ok') app.log.info(`readiness: not ready (${checks.start})`);
    else app.log.warn({ checks }, `readiness: not ready (${failing.map(([k, v]) => `${k} ${v}`).join('; ')})`);
  });
  let listenBase = '';
  linkBase = installLinkBase(app, publicUrl, trusted, () => listenBase);

  let stopSweeps = () => {};
  let loopWatch: LoopWatch | undefined;
  let metricsListener: MetricsListener | undefined;
  let stopHealthLoop = () => {};
  /** With a drain, the answers being written may finish first (within drainMs) before readers are ended. */
  /** `endBy`: when the drain must be over; a running job is waited for until shortly before it. */
  /** `connectionsEnded`: with a drain, the listener was closed before; it settles once its connections ended. */
  const teardown = async (drainMs = 0, endBy = Date.now() + 10_000, connectionsEnded?: Promise<void>) => {
    stopSweeps();
    for (const stop of stopGauges) stop();
    await loopWatch?.stop();
    // Stops taking connections; a new request on an open one is refused (http/drain-gate.ts).
    // Requests in flight go on.
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
    await connectionsEnded;
    // A request that was still in flight when the writers were drained may have begun an answer.
    if (drainMs > 0) await ctx.streams.drainWriters(Math.max(0, endBy - Date.now() - 500));
    await jobs.stop(Math.max(300, endBy - Date.now() - 200));
    await gateway.close();
    await closeCpuPool();
    await store.close();
    await metricsListener?.close();
    stopHealthLoop();
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
    if (!options.instanceId) config.instanceId = `${os.hostname()}:${port}`;
    metrics.registry.setDefaultLabels({ instance: config.instanceId });
    if (typeof config.metrics === 'object') {
      const loop = loopDelayMonitor();
      stopHealthLoop = () => loop.stop();
      const startedAt = Date.now();
      metricsListener = await listenForMetrics(metrics, config.metrics, () =>
        healthBody(config.version, startedAt, loop.delay()),
      );
    }
    boot = writeBootstrapFile(ctx, records, listenBase);
    warmCpuPool();
    if (options.loopWatch) loopWatch = startLoopWatch({ ...options.loopWatch, instance: config.instanceId });
    stopSweeps = startSweeps(ctx, app.log);
    // Several instances on one PostgreSQL: readers here follow streams written elsewhere.
    ctx.streams.startFollowing();
    ctx.requestLog.startFollowing();
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
    log: app.log,
    metricsUrl: metricsListener?.url,
    close(how = {}) {
      closing ??= drain(app, ctx, {
        delayMs: how.drainDelayMs ?? options.drainDelayMs ?? 0,
        timeoutMs: options.drainTimeoutMs ?? 30_000,
        teardown,
      });
      return closing;
    },
  };
}
