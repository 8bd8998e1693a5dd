import { EventEmitter } from 'node:events';
import type { Kysely } from 'kysely';
import type { Database } from '../store/database.js';
import * as repo from '../store/streams.repo.js';
import { busOf } from '../store/cache-bus.js';
import { withExclusiveLock } from '../store/dialect/locks.js';
import { untilStoreAnswers } from '../store/unavailable.js';

export interface LoggedEvent {
  /** 0-based position in the stream's log; a reader that has seen N events resumes at offset N. */
  seq: number;
  type: 'message' | 'done' | 'error';
  data: unknown;
}

const TERMINAL = new Set(['done', 'error']);

/** An event as logged: its type was one of LoggedEvent's when written, its data JSON text. */
const eventOf = (row: { seq: number; type: string; data: string }): LoggedEvent => ({
  seq: row.seq,
  type: row.type as LoggedEvent['type'],
  data: JSON.parse(row.data) as unknown,
});

/**
 * Durable event logs for conversation answers (ARCHITECTURE "Async work and streams"): every event
 * is written to the store before anyone sees it, so a reader replays from any offset; readers of a
 * stream being written get new events through an in-process emitter. With several instances on one
 * PostgreSQL, a reader on one instance follows a stream another writes: the writer sends a wake-up
 * (the stream's key only, after the commit) and the reader's instance reads the new events from the
 * log; a slow poll covers wake-ups lost while a listener reconnects.
 */
export class StreamHub {
  private readonly emitter = new EventEmitter();
  /** Next seq per stream being written by this process; appends to one stream are serialised here. */
  private readonly nextSeq = new Map<string, number>();

  /** Streams written elsewhere that readers here follow: the next seq to read from the log. */
  private readonly remote = new Map<
    string,
    { next: number; readers: number; reading: Promise<void> | null; again: boolean }
  >();
  private unwake: (() => void) | undefined;
  private poller: NodeJS.Timeout | undefined;

  constructor(private readonly db: Kysely<Database>) {
    this.emitter.setMaxListeners(0);
  }

  /** Told when a write of events waits for the database to come back (the server logs it once). */
  onOutage: ((err: unknown, tries: number) => void) | undefined;

  /** Several instances (PostgreSQL): follow wake-ups of streams written elsewhere, and poll slowly. */
  startFollowing(pollMs = 2_000): void {
    const bus = busOf(this.db);
    if (!bus || this.unwake) return;
    this.unwake = bus.onWake('stream', (payload) => {
      for (const key of payload.split(',')) if (this.remote.has(key)) this.readRemote(key);
    });
    this.poller = setInterval(() => {
      for (const key of this.remote.keys()) this.readRemote(key);
    }, pollMs);
    this.poller.unref();
  }

  stopFollowing(): void {
    this.unwake?.();
    this.unwake = undefined;
    clearInterval(this.poller);
  }

  async create(key: string, userId: string, createdAt: Date, ttlSeconds: number): Promise<void> {
    const writer = busOf(this.db)?.instanceId ?? null;
    await repo.insertStream(this.db, {
      key,
      user_id: userId,
      status: 'open',
      created_at: createdAt.toISOString(),
      expires_at: new Date(createdAt.getTime() + ttlSeconds * 1000).toISOString(),
      writer,
    });
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

  private pending: Array<{
    key: string;
    event: LoggedEvent;
    resolve: (e: LoggedEvent) => void;
    reject: (err: unknown) => void;
  }> = [];
  private scheduled = false;
  /** Flushes run one after another, so events are emitted in commit order. */
  private flushing: Promise<void> = Promise.resolve();

  private async flush(): Promise<void> {
    const batch = this.pending.splice(0);
    if (batch.length === 0) return;
    const rows = batch.map((b) => ({
      stream_key: b.key,
      seq: b.event.seq,
      type: b.event.type,
      data: JSON.stringify(b.event.data),
    }));
    const ended = batch
      .filter((b) => TERMINAL.has(b.event.type))
      .map((b) => ({ key: b.key, status: b.event.type === 'done' ? ('done' as const) : ('error' as const) }));
    try {
      // A lost database is an outage to ride out: the events wait here, in order, and are written
      // once it answers again (their readers see them late, not never; the answer's writer is not failed).
      await untilStoreAnswers(() => repo.insertEventBatch(this.db, rows, ended), {
        onOutage: (err, tries) => this.onOutage?.(err, tries),
      });
    } catch (err) {
      // Nothing of the batch is in the log: each stream's next event takes the first seq refused,
      // so its log never has a gap a reader would skip over.
      for (const b of batch) {
        const next = this.nextSeq.get(b.key);
        if (next === undefined || b.event.seq < next) this.nextSeq.set(b.key, b.event.seq);
        b.reject(err);
      }
      return;
    }
    for (const b of batch) {
      this.emitter.emit(b.key, b.event);
      b.resolve(b.event);
    }
    this.wakeOthers([...new Set(batch.map((b) => b.key))]);
  }

  /** Tells the other instances which streams have new events (payloads stay under NOTIFY's 8000 bytes). */
  private wakeOthers(keys: string[]): void {
    const bus = busOf(this.db);
    if (!bus) return;
    let chunk: string[] = [];
    let size = 0;
    const send = () => {
      if (chunk.length) bus.wake('stream', chunk.join(',')).catch(() => undefined);
      chunk = [];
      size = 0;
    };
    for (const key of keys) {
      if (size + key.length + 1 > 7000) send();
      chunk.push(key);
      size += key.length + 1;
    }
    send();
  }

  /** Reads what a remote writer added to `key` since the last read, and hands it to the readers here. */
  private readRemote(key: string): void {
    const follow = this.remote.get(key);
    if (!follow) return;
    if (follow.reading) {
      follow.again = true;
      return;
    }
    follow.reading = (async () => {
      do {
        follow.again = false;
        const rows = await repo.eventsFrom(this.db, key, follow.next, 1000);
        for (const r of rows) {
          follow.next = r.seq + 1;
          this.emitter.emit(key, eventOf(r));
        }
        if (rows.length === 1000) follow.again = true;
      } while (follow.again && this.remote.has(key));
    })()
      .catch(() => undefined)
      .finally(() => {
        follow.reading = null;
      });
  }

  async replay(key: string, fromSeq: number): Promise<LoggedEvent[]> {
    const rows = await repo.eventsFrom(this.db, key, fromSeq, 100_000);
    return rows.map(eventOf);
  }

  /** The stream's done or error event, once it has ended; undefined while it is being written. */
  async terminalEvent(key: string): Promise<LoggedEvent | undefined> {
    const row = await repo.terminalEvent(this.db, key);
    return row && eventOf(row);
  }

  /**
   * Live events of a stream. A stream this instance does not write is followed from the log when
   * other instances may write it; readers drop what they have already sent by seq, so reading the
   * log from its start here costs a few rows once and never repeats an event to a client.
   */
  subscribe(key: string, listener: (e: LoggedEvent) => void): () => void {
    this.emitter.on(key, listener);
    const followed = this.unwake && !this.nextSeq.has(key);
    if (followed) {
      const follow = this.remote.get(key) ?? { next: 0, readers: 0, reading: null, again: false };
      follow.readers++;
      this.remote.set(key, follow);
      this.readRemote(key);
    }
    return () => {
      this.emitter.off(key, listener);
      if (!followed) return;
      const follow = this.remote.get(key);
      if (follow && --follow.readers <= 0) this.remote.delete(key);
    };
  }

  /** Open SSE responses register how to end themselves, so a shutdown does not wait on them. */
  readonly readers = new Set<() => void>();

  /** Answers this process is writing into their logs, so that a drain can let them finish. */
  private readonly writers = new Set<Promise<unknown>>();

  /** Answers being written now (for /metrics). */
  get writerCount(): number {
    return this.writers.size;
  }

  /** Keeps track of an answer being written until it settles. */
  writing(answer: Promise<unknown>): void {
    const tracked = answer.finally(() => this.writers.delete(tracked)).catch(() => undefined);
    this.writers.add(tracked);
  }

  /**
   * Waits, at most `timeoutMs`, for the answers being written to end (a SIGTERM's drain): their
   * readers get the whole answer and its done event instead of an error caused by the upgrade.
   * Resolves with how many were still being written when time ran out.
   */
  async drainWriters(timeoutMs: number): Promise<number> {
    if (this.writers.size === 0) return 0;
    let timer: NodeJS.Timeout | undefined;
    let over = false;
    const late = new Promise<void>((resolve) => (timer = setTimeout(() => resolve(void (over = true)), timeoutMs)));
    // Again while answers remain: a request still in flight may have begun one after the first look.
    while (this.writers.size > 0 && !over) await Promise.race([Promise.all([...this.writers]), late]);
    clearTimeout(timer);
    return this.writers.size;
  }

  endReaders(): void {
    for (const end of [...this.readers]) end();
  }

  /**
   * At start-up, a stream still open was being written by a process that is gone: it can never
   * finish, so it ends with an error event its readers will see instead of waiting forever.
   */
  async closeOrphans(): Promise<number> {
    const bus = busOf(this.db);
    if (!bus) return this.closeStreams(await repo.openStreams(this.db));
    // Several instances: only streams whose writer is gone, and one instance at a time.
    // The open streams first, the live instances second: an instance that starts in between is
    // live by then, so a stream it has just opened is never taken for an orphan.
    return withExclusiveLock(this.db, 'facet:stream-orphans', async () => {
      const open = await repo.openStreams(this.db);
      const live = new Set(await bus.liveInstances());
      return this.closeStreams(live.size === 0 ? open : open.filter((s) => s.writer === null || !live.has(s.writer)));
    });
  }

  private async closeStreams(open: repo.StreamRow[]): Promise<number> {
    let closed = 0;
    for (const s of open) {
      if (this.nextSeq.has(s.key)) continue;
      await this.append(s.key, 'error', {
        message: 'the server that was writing this answer stopped before it was finished; ask again',
      });
      closed++;
    }
    return closed;
  }
}
