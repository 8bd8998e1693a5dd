import { sql, type Kysely } from 'kysely';
import type { FileStore } from './files/file-store.js';
import type { Database } from './store/database.js';

export interface ReadinessReport {
  ready: boolean;
  /** Each check by name: 'ok', or why it is not. */
  checks: Record<'start' | 'database' | 'files', string>;
}

/** A check slower than this counts as failed: a balancer waits for the answer. */
const CHECK_TIMEOUT_MS = 2_000;
/** Answers are kept this long, so a balancer polling every few hundred ms adds no load. */
const KEEP_MS = 1_000;

/**
 * Whether this instance can serve now (`GET /readyz`), as distinct from alive (`/healthz`): not
 * before its workers run, not while draining on SIGTERM, and not while the database or the object
 * store cannot be reached. A balancer takes it out of rotation meanwhile.
 */
export class Readiness {
  private phase: 'starting' | 'started' | 'draining' = 'starting';
  private refusing = false;
  private kept: { at: number; report: Promise<ReadinessReport> } | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly files: FileStore,
  ) {}

  started(): void {
    this.phase = 'started';
  }

  private readonly drainListeners: Array<() => void> = [];

  draining(): void {
    if (this.phase === 'draining') return;
    this.phase = 'draining';
    for (const fn of this.drainListeners) fn();
  }

  onDraining(fn: () => void): void {
    this.drainListeners.push(fn);
  }

  get isDraining(): boolean {
    return this.phase === 'draining';
  }

  /** The drain delay is over: new requests are refused from now on (http/drain-gate.ts). */
  refuse(): void {
    this.refusing = true;
  }

  get isRefusing(): boolean {
    return this.refusing;
  }

  private wasReady = false;
  private readonly changeListeners: Array<(report: ReadinessReport) => void> = [];

  /** Runs `fn` when a report says otherwise than the one before (ready or not), once per change. */
  onChange(fn: (report: ReadinessReport) => void): void {
    this.changeListeners.push(fn);
  }

  report(): Promise<ReadinessReport> {
    if (this.phase !== 'started') {
      const start = this.phase === 'starting' ? 'starting: job workers not running yet' : 'draining: shutting down';
      return Promise.resolve(
        this.noted({ ready: false, checks: { start, database: 'not checked', files: 'not checked' } }),
      );
    }
    const now = Date.now();
    if (!this.kept || now - this.kept.at > KEEP_MS)
      this.kept = { at: now, report: this.check().then((r) => this.noted(r)) };
    return this.kept.report;
  }

  private noted(report: ReadinessReport): ReadinessReport {
    if (report.ready !== this.wasReady) {
      this.wasReady = report.ready;
      for (const fn of this.changeListeners) fn(report);
    }
    return report;
  }

  private async check(): Promise<ReadinessReport> {
    const [database, files] = await Promise.all([
      probe(() => sql`SELECT 1`.execute(this.db)),
      // A local folder is always there; an object store is asked for the object it keeps.
      this.files.kind === 'local' ? Promise.resolve('ok') : probe(() => this.files.identity()),
    ]);
    return { ready: database === 'ok' && files === 'ok', checks: { start: 'ok', database, files } };
  }
}

async function probe(fn: () => Promise<unknown>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${CHECK_TIMEOUT_MS} ms`), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([fn().then(() => 'ok'), late]);
  } catch (err) {
    return `unreachable: ${(err as Error).message}`;
  } finally {
    clearTimeout(timer);
  }
}
