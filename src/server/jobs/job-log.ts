/**
 * One run's log lines, written in the order they were logged without the run waiting for each:
 * a handler may go on (start its render) while a line is being committed. `drained()` settles once
 * every line so far is committed, and rejects with the first line that failed, so the run's end is
 * never committed before its log and a failed line still fails the run.
 */
export class JobLog {
  private tail: Promise<void> | null = null;
  private failure: { err: unknown } | null = null;

  constructor(private readonly write: (line: string) => Promise<void>) {}

  /**
   * Writes the line, after the ones before it: at once when none is pending (the usual case, and
   * then the store's own order keeps them in sequence), else once the one before it is committed.
   */
  append(line: string): Promise<void> {
    const written = this.tail ? this.tail.then(() => this.write(line)) : this.write(line);
    const settled = written.then(
      () => undefined,
      (err) => {
        this.failure ??= { err };
      },
    );
    this.tail = settled;
    void settled.then(() => {
      if (this.tail === settled) this.tail = null;
    });
    return written;
  }

  async drained(): Promise<void> {
    while (this.tail) await this.tail;
    if (this.failure) throw this.failure.err;
  }
}
