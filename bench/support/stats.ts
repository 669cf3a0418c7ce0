/** Timing statistics shared by the benchmarks. */
export interface Stats {
  runs: number;
  min_ms: number;
  median_ms: number;
  p95_ms: number;
  max_ms: number;
}

export const round1 = (n: number): number => Math.round(n * 10) / 10;

/** Nearest-rank percentiles of millisecond samples, rounded to 0.1 ms. */
export function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return {
    runs: sorted.length,
    min_ms: round1(sorted[0]!),
    median_ms: round1(at(0.5)),
    p95_ms: round1(at(0.95)),
    max_ms: round1(sorted.at(-1)!),
  };
}

/** Milliseconds `fn` takes. */
export async function timed(fn: () => Promise<unknown> | unknown): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}
