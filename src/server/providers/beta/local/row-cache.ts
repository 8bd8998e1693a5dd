/**
 * Generated rows of the most recent subjects, so paging through one target or whois walks does not
 * generate the same rows again on every page. Bounded: the oldest subject goes first.
 */
export class RowCache<T> {
  private readonly map = new Map<string, T>();
  constructor(private readonly max: number) {}

  get(key: string, make: () => T): T {
    const hit = this.map.get(key);
    if (hit !== undefined) {
      this.map.delete(key);
      this.map.set(key, hit);
      return hit;
    }
    const value = make();
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as string);
    return value;
  }
}
