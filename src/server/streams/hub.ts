import { EventEmitter } from 'node:events';
import type { Kysely } from 'kysely';
import type { Database } from '../store/database.js';
import * as repo from '../store/streams.repo.js';

export interface LoggedEvent {
  /** 0-based position in the stream's log; a reader that has seen N events resumes at offset N. */
  seq: number;
  type: 'message' | 'done' | 'error';
  data: unknown;
}

const TERMINAL = new Set(['done', 'error']);

/**
 * Durable event logs for conversation answers (ARCHITECTURE "Async work and streams"): every event
 * is written to the store before anyone sees it, so a reader replays from any offset; readers of a
 * stream being written get new events through an in-process emitter. With several instances
 * (PostgreSQL) the emitter is where LISTEN/NOTIFY plugs in.
 */
export class StreamHub {
  private readonly emitter = new EventEmitter();
  /** Next seq per stream being written by this process; appends to one stream are serialised here. */
  private readonly nextSeq = new Map<string, number>();

  constructor(private readonly db: Kysely<Database>) {
    this.emitter.setMaxListeners(0);
  }

  async create(key: string, userId: string, createdAt: Date, ttlSeconds: number): Promise<void> {
    await repo.insertStream(this.db, { key, user_id: userId, status: 'open', created_at: createdAt.toISOString(), expires_at: new Date(createdAt.getTime() + ttlSeconds * 1000).toISOString() });
    this.nextSeq.set(key, 0);
  }

  /**
   * Appends an event; resolves once it is committed and sent to live readers. Appends from all
   * streams are committed together, one transaction per tick (group commit): a thousand answers being
   * written at once cost a few transactions a tick, not one per chunk. A producer awaits each append,
   * so one stream's events keep their order.
   */
  async append(key: string, type: LoggedEvent['type'], data: unknown): Promise<LoggedEvent> {
    if (!this.nextSeq.has(key)) this.nextSeq.set(key, (await repo.lastSeq(this.db, key)) + 1);
    const seq = this.nextSeq.get(key)!;
    this.nextSeq.set(key, seq + 1);
    if (TERMINAL.has(type)) this.nextSeq.delete(key);
    const event: LoggedEvent = { seq, type, data };
    return new Promise<LoggedEvent>((resolve, reject) => {
      this.pending.push({ key, event, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.flushing = this.flushing.then(() => this.flush());
        });
      }
    });
  }

  private pending: Array<{ key: string; event: LoggedEvent; resolve: (e: LoggedEvent) => void; reject: (err: unknown) => void }> = [];
  private scheduled = false;
  /** Flushes run one after another, so events are emitted in commit order. */
  private flushing: Promise<void> = Promise.resolve();

  private async flush(): Promise<void> {
    const batch = this.pending.splice(0);
    if (batch.length === 0) return;
    try {
      await repo.insertEventBatch(
        this.db,
        batch.map((b) => ({ stream_key: b.key, seq: b.event.seq, type: b.event.type, data: JSON.stringify(b.event.data) })),
        batch.filter((b) => TERMINAL.has(b.event.type)).map((b) => ({ key: b.key, status: b.event.type === 'done' ? ('done' as const) : ('error' as const) })),
      );
    } catch (err) {
      for (const b of batch) b.reject(err);
      return;
    }
    for (const b of batch) {
      this.emitter.emit(b.key, b.event);
      b.resolve(b.event);
    }
  }

  async replay(key: string, fromSeq: number): Promise<LoggedEvent[]> {
    const rows = await repo.eventsFrom(this.db, key, fromSeq, 100_000);
    return rows.map((r) => ({ seq: r.seq, type: r.type as LoggedEvent['type'], data: JSON.parse(r.data) }));
  }

  /** The stream's done or error event, once it has ended; undefined while it is being written. */
  async terminalEvent(key: string): Promise<LoggedEvent | undefined> {
    const row = await repo.terminalEvent(this.db, key);
    return row && { seq: row.seq, type: row.type as LoggedEvent['type'], data: JSON.parse(row.data) };
  }

  subscribe(key: string, listener: (e: LoggedEvent) => void): () => void {
    this.emitter.on(key, listener);
    return () => this.emitter.off(key, listener);
  }

  /** Open SSE responses register how to end themselves, so a shutdown does not wait on them. */
  readonly readers = new Set<() => void>();

  endReaders(): void {
    for (const end of [...this.readers]) end();
  }

  /**
   * At start-up, a stream still open was being written by a process that is gone: it can never
   * finish, so it ends with an error event its readers will see instead of waiting forever.
   */
  async closeOrphans(): Promise<number> {
    const open = await repo.openStreams(this.db);
    for (const s of open) {
      if (this.nextSeq.has(s.key)) continue;
      await this.append(s.key, 'error', { message: 'the server restarted before this answer was finished; ask again' });
    }
    return open.length;
  }
}
