// Small statistics helpers shared by the benchmarks.
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export const median = (values) => percentile(values, 50);

export function fmt(n, digits = 1) {
  return Number(n).toFixed(digits);
}
