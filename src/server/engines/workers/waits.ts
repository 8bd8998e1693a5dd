/** How long a lane's last jobs waited for a worker: the quantiles /healthz shows (/metrics has a histogram). */
export class WaitWindow {
  private readonly ms: number[] = [];
  private next = 0;

  constructor(private readonly keep = 512) {}

  add(ms: number): void {
    if (this.ms.length < this.keep) this.ms.push(ms);
    else this.ms[this.next] = ms;
    this.next = (this.next + 1) % this.keep;
  }

  /** The p50, p99 and longest wait of the last jobs (0 with none yet), in milliseconds. */
  quantiles(): { p50_ms: number; p99_ms: number; max_ms: number; jobs: number } {
    const sorted = [...this.ms].sort((a, b) => a - b);
    const at = (q: number) =>
      sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]) : 0;
    return {
      p50_ms: at(0.5),
      p99_ms: at(0.99),
      max_ms: sorted.length ? Math.round(sorted[sorted.length - 1]) : 0,
      jobs: sorted.length,
    };
  }
}
