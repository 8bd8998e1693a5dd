import type { Kysely } from 'kysely';
import type { RequestLogLine } from '../../contract/audit.js';
import { busOf, type CacheBus } from '../store/cache-bus.js';
import type { Database } from '../store/database.js';

/** Lines kept in memory, per instance: a tail that falls further behind skips the oldest (and is told). */
export const RING_SIZE = 1_000;
/** Lines are sent to the other instances in batches this often (one NOTIFY, not one per request). */
const FLUSH_MS = 100;
/** A NOTIFY payload holds under 8000 bytes; a batch is split below that. */
const MAX_PAYLOAD = 7_000;
/** An open tail says so this often; instances publish to the others while they heard it recently. */
const INTEREST_EVERY_MS = 5_000;
const INTEREST_LASTS_MS = 15_000;

/** One reader of the ring: `next` is the sequence number of the next line it will read. */
export interface RingReader {
  next: number;
  wake(): void;
}

/**
 * The live request log (`facet logs tail`): a bounded ring of the newest lines in memory and
 * nothing on disk. Every instance on one PostgreSQL publishes its lines to the others over the
 * cache bus (LISTEN/NOTIFY), but only while a tail is open somewhere, so an idle deployment sends
 * nothing; each instance puts the lines it hears into its own ring.
 */
export class RequestLog {
  private readonly ring: RequestLogLine[] = new Array<RequestLogLine>(RING_SIZE);
  /** Sequence number of the next line written; line n lives at ring[n % RING_SIZE]. */
  seq = 0;
  private readonly readers = new Set<RingReader>();
  readonly closers = new Set<() => void>();
  private outbox: RequestLogLine[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private interestTimer: NodeJS.Timeout | undefined;
  private interestUntil = 0;
  private unsubscribe: Array<() => void> = [];
  private bus: CacheBus | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly onError: (err: unknown) => void = () => undefined,
    /** The instance's name (`--instance-id`), as audit entries, logs and metrics say it. */
    private readonly name: () => string | null = () => null,
  ) {}

  /** The instance its lines name; the cache bus's own id only tells its messages apart. */
  get instanceId(): string | null {
    return this.name();
  }

  /** Several instances (PostgreSQL): hear the others' lines and their tails' interest. */
  startFollowing(): void {
    const bus = busOf(this.db);
    if (!bus || this.bus) return;
    this.bus = bus;
    this.unsubscribe.push(
      bus.onWake('log', (payload) => {
        try {
          const batch = JSON.parse(payload) as { from: string; lines: RequestLogLine[] };
          if (batch.from !== bus.instanceId) for (const line of batch.lines) this.put(line);
        } catch (err) {
          this.onError(err);
        }
      }),
      bus.onWake('log-interest', () => {
        this.interestUntil = Date.now() + INTEREST_LASTS_MS;
      }),
    );
  }

  /** A line of this instance: into the ring, and to the other instances while someone tails. */
  publish(line: RequestLogLine): void {
    this.put(line);
    if (!this.bus || Date.now() > this.interestUntil) return;
    this.outbox.push(line);
    this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  private put(line: RequestLogLine): void {
    this.ring[this.seq % RING_SIZE] = line;
    this.seq++;
    for (const r of this.readers) r.wake();
  }

  private flush(): void {
    this.flushTimer = undefined;
    const bus = this.bus;
    const lines = this.outbox;
    this.outbox = [];
    if (!bus) return;
    let batch: RequestLogLine[] = [];
    let size = 0;
    const send = () => {
      if (batch.length) bus.wake('log', JSON.stringify({ from: bus.instanceId, lines: batch })).catch(this.onError);
      batch = [];
      size = 0;
    };
    for (const line of lines) {
      const n = JSON.stringify(line).length + 1;
      if (size + n > MAX_PAYLOAD) send();
      batch.push(line);
      size += n;
    }
    send();
  }

  /** Reads the line `reader.next` and moves on; a reader more than the ring behind is moved to the oldest kept and told how many it missed. */
  read(reader: RingReader): { line?: RequestLogLine; skipped: number } {
    let skipped = 0;
    if (this.seq - reader.next > RING_SIZE) {
      skipped = this.seq - RING_SIZE - reader.next;
      reader.next = this.seq - RING_SIZE;
    }
    if (reader.next >= this.seq) return { skipped };
    return { line: this.ring[reader.next++ % RING_SIZE], skipped };
  }

  /** The newest kept lines that pass `keep`, newest first, at most `limit`: what a page shows before a tail opens. */
  recent(limit: number, keep: (line: RequestLogLine) => boolean): RequestLogLine[] {
    const out: RequestLogLine[] = [];
    for (let n = this.seq - 1; n >= Math.max(0, this.seq - RING_SIZE) && out.length < limit; n--) {
      const line = this.ring[n % RING_SIZE];
      if (keep(line)) out.push(line);
    }
    return out;
  }

  /** Open tails (for /metrics). */
  get readerCount(): number {
    return this.readers.size;
  }

  /** A tail opens: it reads from now on; the other instances are asked to publish while it is open. */
  attach(reader: RingReader): () => void {
    this.readers.add(reader);
    this.announceInterest();
    return () => {
      this.readers.delete(reader);
      if (this.readers.size === 0) {
        clearInterval(this.interestTimer);
        this.interestTimer = undefined;
      }
    };
  }

  private announceInterest(): void {
    const bus = this.bus;
    if (!bus || this.interestTimer) return;
    const say = () => bus.wake('log-interest', bus.instanceId).catch(this.onError);
    void say();
    this.interestTimer = setInterval(() => void say(), INTEREST_EVERY_MS);
    this.interestTimer.unref();
  }

  /** The server drains: every open tail ends cleanly. */
  endReaders(): void {
    for (const close of [...this.closers]) close();
  }

  stop(): void {
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
    clearTimeout(this.flushTimer);
    clearInterval(this.interestTimer);
    this.bus = undefined;
  }
}
