import pg from 'pg';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../database.js';
import { clearAllCaches, type CacheBus, type WakeTopic } from '../cache-bus.js';
import { newId } from '../ids.js';

const CHANNEL = 'facet_cache';
const WAKE_CHANNELS: Record<WakeTopic, string> = {
  stream: 'facet_stream',
  job: 'facet_job',
  log: 'facet_log',
  'log-interest': 'facet_log_interest',
};
/** Each instance says it is alive this often; one silent for LIVE_WINDOW_MS is not waited for. */
const HEARTBEAT_MS = 2_000;
const LIVE_WINDOW_MS = 10_000;
/** The longest an announcer waits for the others (a live instance acknowledges in milliseconds). */
const ACK_TIMEOUT_MS = 3_000;
const RECONNECT_MS = [250, 500, 1000, 2000, 5000];

/** Milliseconds on the database's clock: instances on different machines compare the same clock. */
const dbNowMs = sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`;

/**
 * The cache bus on PostgreSQL: one LISTEN connection per process, NOTIFY with the announcement's
 * number after the write committed, and a row per live process with the newest number it applied.
 * Announcements are numbered by a counter row, so numbers follow commit order: applying number n
 * (which drops every cache) happens after every write announced with a smaller number committed.
 */
export class PostgresCacheBus implements CacheBus {
  readonly instanceId = newId('inst');
  private readonly wakeHandlers = new Map<string, Set<(id: string) => void>>();
  private client: pg.Client | undefined;
  private listening = false;
  private closed = false;
  private heartbeat: NodeJS.Timeout | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private attempts = 0;
  /** Acknowledgements are written one after the other, newest last. */
  private acking: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly url: string,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  get trusted(): boolean {
    return this.listening;
  }

  async start(): Promise<void> {
    await this.db
      .insertInto('cache_instances')
      .values({
        id: this.instanceId,
        heartbeat_ms: dbNowMs,
        acked_epoch: sql<number>`(SELECT n FROM cache_epoch WHERE id = 1)`,
      })
      .execute();
    await this.listen();
    this.heartbeat = setInterval(() => {
      this.db
        .updateTable('cache_instances')
        .set({ heartbeat_ms: dbNowMs })
        .where('id', '=', this.instanceId)
        .execute()
        .catch(this.onError);
      // Instances gone for good (killed without closing) are forgotten after a while.
      this.db
        .deleteFrom('cache_instances')
        .where('heartbeat_ms', '<', sql<number>`${dbNowMs} - ${LIVE_WINDOW_MS * 30}`)
        .execute()
        .catch(this.onError);
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (msg) => {
      if (msg.channel === CHANNEL) this.apply(Number(msg.payload));
      else for (const fn of this.wakeHandlers.get(msg.channel) ?? []) fn(msg.payload ?? '');
    });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      for (const channel of Object.values(WAKE_CHANNELS)) await client.query(`LISTEN ${channel}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    this.client = client;
    // Whatever was announced while we were not listening is unknown: start from empty caches. The
    // counter is read first, so every write announced up to it committed before the caches emptied;
    // later announcements reach the listener, which is already on.
    const { n } = await this.db.selectFrom('cache_epoch').select('n').where('id', '=', 1).executeTakeFirstOrThrow();
    clearAllCaches(this.db);
    this.listening = true;
    this.attempts = 0;
    this.apply(Number(n));
  }

  private apply(epoch: number): void {
    clearAllCaches(this.db);
    this.acking = this.acking
      .then(() =>
        this.db
          .updateTable('cache_instances')
          .set({ acked_epoch: sql<number>`greatest(acked_epoch, ${epoch})`, heartbeat_ms: dbNowMs })
          .where('id', '=', this.instanceId)
          .execute(),
      )
      .then(() => undefined, this.onError);
  }

  private lost(client: pg.Client, err?: unknown): void {
    if (client !== this.client) return;
    this.listening = false;
    this.client = undefined;
    clearAllCaches(this.db);
    client.end().catch(() => undefined);
    if (err) this.onError(err);
    this.reconnectLater();
  }

  /** Until listening again, the caches are bypassed (trusted is false); retries back off to 5 s. */
  private reconnectLater(): void {
    if (this.closed) return;
    const delay = RECONNECT_MS[Math.min(this.attempts++, RECONNECT_MS.length - 1)];
    this.reconnectTimer = setTimeout(() => {
      this.listen().catch((e) => {
        this.onError(e);
        this.reconnectLater();
      });
    }, delay);
    this.reconnectTimer.unref();
  }

  async announce(): Promise<void> {
    const { n } = await this.db
      .updateTable('cache_epoch')
      .set({ n: sql<number>`n + 1` })
      .where('id', '=', 1)
      .returning('n')
      .executeTakeFirstOrThrow();
    const epoch = Number(n);
    await sql`SELECT pg_notify(${CHANNEL}, ${String(epoch)})`.execute(this.db);
    const deadline = Date.now() + ACK_TIMEOUT_MS;
    for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
      const { lagging } = await this.db
        .selectFrom('cache_instances')
        .select((eb) => eb.fn.countAll<number>().as('lagging'))
        .where('id', '<>', this.instanceId)
        .where('acked_epoch', '<', epoch)
        .where('heartbeat_ms', '>', sql<number>`${dbNowMs} - ${LIVE_WINDOW_MS}`)
        .executeTakeFirstOrThrow();
      if (Number(lagging) === 0) return;
      if (Date.now() > deadline) {
        this.onError(
          new Error(
            `${lagging} instance(s) did not acknowledge cache announcement ${epoch} within ${ACK_TIMEOUT_MS} ms`,
          ),
        );
        return;
      }
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  async wake(topic: WakeTopic, id: string): Promise<void> {
    await sql`SELECT pg_notify(${WAKE_CHANNELS[topic]}, ${id})`.execute(this.db);
  }

  onWake(topic: WakeTopic, fn: (id: string) => void): () => void {
    const channel = WAKE_CHANNELS[topic];
    let set = this.wakeHandlers.get(channel);
    if (!set) this.wakeHandlers.set(channel, (set = new Set()));
    set.add(fn);
    return () => set.delete(fn);
  }

  async liveInstances(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('cache_instances')
      .select('id')
      .where('heartbeat_ms', '>', sql<number>`${dbNowMs} - ${LIVE_WINDOW_MS}`)
      .execute();
    return rows.map((r) => r.id);
  }

  async claimFilesDir(filesId: string): Promise<Array<{ id: string; filesId: string }>> {
    await this.db.updateTable('cache_instances').set({ files_id: filesId }).where('id', '=', this.instanceId).execute();
    const rows = await this.db
      .selectFrom('cache_instances')
      .select(['id', 'files_id'])
      .where('id', '<>', this.instanceId)
      .where('files_id', 'is not', null)
      .where('files_id', '<>', filesId)
      .where('heartbeat_ms', '>', sql<number>`${dbNowMs} - ${LIVE_WINDOW_MS}`)
      .execute();
    return rows.map((r) => ({ id: r.id, filesId: r.files_id! }));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.heartbeat);
    clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = undefined;
    this.listening = false;
    await client?.end().catch(() => undefined);
    await this.acking;
    await this.db
      .deleteFrom('cache_instances')
      .where('id', '=', this.instanceId)
      .execute()
      .catch(() => undefined);
  }
}
