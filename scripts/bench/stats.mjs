// Summaries shared by the benches: nearest-rank percentiles of latency samples.

/** The q-quantile (0..1) of sorted values, nearest rank. */
export function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** `{ count, p50, p99, max }` of samples (any order); NaN figures when there are none. */
export function latencySummary(samples) {
  const s = [...samples].sort((a, b) => a - b);
  return { count: s.length, p50: quantile(s, 0.5), p99: quantile(s, 0.99), max: s.at(-1) ?? NaN };
}
