/** One bounded autocannon run against 127.0.0.1, reduced to the figures the benchmark reports. */
import autocannon from 'autocannon';

export interface LoadOptions {
  connections: number;
  /** Seconds; the run stops then even when `amount` is not reached. */
  duration: number;
  /** Stop after this many requests instead (still bounded by `duration`). */
  amount?: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Request body; `[<id>]` in it is replaced by a fresh id per request. */
  body?: string;
  /** Requests per second over all connections (an open load); default: as fast as answered. */
  rate?: number;
  /** Several paths cycled through in turn (the memory run's mix). */
  paths?: string[];
  /** Called every second while running (memory sampling). */
  onTick?: () => void;
}

export interface LoadResult {
  url: string;
  connections: number;
  duration_s: number;
  requests: number;
  requests_per_s: number;
  latency_p50_ms: number;
  latency_p90_ms: number;
  latency_p99_ms: number;
  latency_max_ms: number;
  latency_avg_ms: number;
  /** Bytes of one response, averaged over the run. */
  response_bytes: number;
  non_2xx: number;
  errors: number;
}

export function assertLoopback(url: string): void {
  if (!/^http:\/\/127\.0\.0\.1:\d+(\/|$)/.test(url)) throw new Error(`refusing to load anything but 127.0.0.1 (${url})`);
}

export async function load(url: string, options: LoadOptions): Promise<LoadResult> {
  assertLoopback(url);
  let finish: (result: autocannon.Result) => void = () => undefined;
  let fail: (err: unknown) => void = () => undefined;
  const finished = new Promise<autocannon.Result>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  const instance = autocannon(
    {
      url,
      connections: options.connections,
      duration: options.duration,
      ...(options.amount !== undefined && { amount: options.amount }),
      ...(options.rate !== undefined && { overallRate: options.rate }),
      method: options.method ?? 'GET',
      headers: options.headers ?? {},
      ...(options.body !== undefined && { body: options.body, idReplacement: true }),
      ...(options.paths && { requests: options.paths.map((path) => ({ path })) }),
    },
    (err, result) => (err ? fail(err) : finish(result)),
  );
  // A run with `amount` ignores `duration`: the timer keeps it bounded anyway.
  const limit = setTimeout(() => instance.stop(), (options.duration + 5) * 1000);
  if (options.onTick) instance.on('tick', options.onTick);
  const result = await finished;
  clearTimeout(limit);
  const seconds = result.duration || options.duration;
  return {
    url,
    connections: options.connections,
    duration_s: Math.round(seconds * 10) / 10,
    requests: result.requests.total,
    requests_per_s: Math.round(result.requests.total / seconds),
    latency_p50_ms: result.latency.p50,
    latency_p90_ms: result.latency.p90,
    latency_p99_ms: result.latency.p99,
    latency_max_ms: result.latency.max,
    latency_avg_ms: Math.round(result.latency.average * 100) / 100,
    response_bytes: result.requests.total > 0 ? Math.round(result.throughput.total / result.requests.total) : 0,
    non_2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}
