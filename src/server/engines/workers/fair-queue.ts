/**
 * Jobs waiting for a CPU lane, taken round-robin between owners (API keys or users): each turn
 * serves the owner at the head of the line one job and sends it to the back, so a key with fifty
 * renders queued delays another key's one job by at most one job per other owner, not fifty.
 * A Map keeps insertion order, which is the line of owners.
 */
export class FairQueue<T> {
  private readonly byOwner = new Map<string, T[]>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** How many jobs one owner has waiting. */
  sizeOf(owner: string): number {
    return this.byOwner.get(owner)?.length ?? 0;
  }

  push(owner: string, item: T): void {
    let line = this.byOwner.get(owner);
    if (!line) this.byOwner.set(owner, (line = []));
    line.push(item);
    this.count++;
  }

  /**
   * The next job: the first of the first owner in line that `may` run one now (all, unless told);
   * that owner goes to the back of the line, the owners passed over keep their places.
   */
  shift(may: (owner: string) => boolean = () => true): T | undefined {
    for (const [owner, line] of this.byOwner) {
      if (!may(owner)) continue;
      const item = line.shift()!;
      this.byOwner.delete(owner);
      if (line.length > 0) this.byOwner.set(owner, line);
      this.count--;
      return item;
    }
    return undefined;
  }

  /** Drops a waiting job (its caller gave up); false when it was not waiting. */
  remove(owner: string, item: T): boolean {
    const line = this.byOwner.get(owner);
    const at = line ? line.indexOf(item) : -1;
    if (!line || at < 0) return false;
    line.splice(at, 1);
    if (line.length === 0) this.byOwner.delete(owner);
    this.count--;
    return true;
  }

  /** Empties the queue, returning what waited (pool close). */
  drain(): T[] {
    const all = [...this.byOwner.values()].flat();
    this.byOwner.clear();
    this.count = 0;
    return all;
  }
}
