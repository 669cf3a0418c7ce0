/**
 * An open load at a steady rate over a fixed number of connections: request i is due at
 * start + i / rate and goes on connection i mod `connections` (keep-alive, one request at a time
 * each, as HTTP/1.1 without pipelining). With 50 connections at 250/s each connection sends every
 * 200 ms, the connections staggered 4 ms apart.
 *
 * Why not autocannon's `overallRate`: it gives each connection a budget per second, spent as fast
 * as answers come at the start of each second, and all connections start their seconds together:
 * 250 writes arrive as one burst every second and wait for each other (a closed loop for the
 * first part of each second), so its latency says little about a steady rate (docs/performance.md).
 *
 * Latency is counted from when a request was due, not from when a connection was free to send
 * it: a server that falls behind shows it (no coordinated omission). So the generator's own
 * lateness counts too: `pacedLoadApart` runs it in a process of its own (paced-child.ts), and the
 * result says how late it sent (`send_lag_*`), so a figure can be told apart from its harness.
 *
 * Requests go out as bytes on raw keep-alive connections (raw-connection.ts), not through Node's
 * http client: on this 2-core machine the generator shares the cores with the server, and the
 * http client took 0.8 ms of CPU a request (20% of a core at 250/s), against 0.3–0.4 ms for the
 * raw connections; against a server answering 202 at once, p99 3.0–4.8 ms rather than 4.6–5.2
 * (docs/performance.md, session 9).
 */
import { fileURLToPath } from 'node:url';
import { ask, startChild, stopChild } from './children.js';
import { assertLoopback, type LoadResult } from './load.js';
import { RawConnection } from './raw-connection.js';

export interface PacedOptions {
  connections: number;
  /** Requests per second over all connections. */
  rate: number;
  duration: number;
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  /** `[<id>]` in it is replaced by a fresh id per request. */
  body?: string;
}

export interface PacedResult extends LoadResult {
  /** How late the generator sent requests after they were due (its own event loop, not the server). */
  send_lag_p99_ms: number;
  send_lag_max_ms: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Writes each request as bytes: the line, Host and the given headers, worked out once per run, then
 * Content-Length (in UTF-8 bytes) when there is a body, and the body.
 */
export function requestWriter(url: URL, o: Pick<PacedOptions, 'method' | 'headers'>): (body: string | undefined) => string {
  const headers = Object.entries(o.headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const head = `${o.method} ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n${headers}`;
  return (body) => (body === undefined ? `${head}\r\n` : `${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

export async function pacedLoad(url: string, o: PacedOptions): Promise<PacedResult> {
  assertLoopback(url);
  const target = new URL(url);
  const requestBytes = requestWriter(target, o);
  const connections = Array.from({ length: o.connections }, () => new RawConnection(target.hostname, Number(target.port || 80)));
  const total = Math.round(o.rate * o.duration);
  const interval = 1000 / o.rate;
  const latencies = new Float64Array(total);
  const lags = new Float64Array(total);
  const run = Math.random().toString(36).slice(2, 8);
  let done = 0;
  let non2xx = 0;
  let errors = 0;
  let bytes = 0;
  let ended = false;
  const start = performance.now() + 50;

  const finished = new Promise<void>((resolve) => {
    const send = (i: number) => {
      const due = start + i * interval;
      lags[i] = performance.now() - due;
      const body = o.body?.replaceAll('[<id>]', `${run}-${i}`);
      connections[i % o.connections]!.send({
        bytes: requestBytes(body),
        done: (outcome) => {
          if (ended) return; // failed by close() below: counted as not answered
          latencies[i] = performance.now() - due;
          if ('error' in outcome) errors += 1;
          else {
            bytes += outcome.bytes;
            if (outcome.status < 200 || outcome.status > 299) non2xx += 1;
          }
          done += 1;
          if (done === total) resolve();
        },
      });
    };
    let next = 0;
    const tick = () => {
      const now = performance.now();
      while (next < total && start + next * interval <= now) send(next++);
      if (next < total) setTimeout(tick, Math.max(0, start + next * interval - performance.now()));
    };
    setTimeout(tick, 50);
  });
  // Bounded like every load of the benchmark: a server that never answers ends the run.
  let limit: NodeJS.Timeout | undefined;
  await Promise.race([finished, new Promise<void>((resolve) => (limit = setTimeout(resolve, (o.duration + 30) * 1000)))]);
  clearTimeout(limit);
  ended = true;
  for (const connection of connections) connection.close();
  const seconds = (performance.now() - start) / 1000;
  const sorted = latencies.filter((v) => v > 0).sort();
  const sum = sorted.reduce((a, b) => a + b, 0);
  const lagsSorted = lags.subarray(0, done).sort();
  return {
    url,
    connections: o.connections,
    duration_s: Math.round(seconds * 10) / 10,
    requests: done,
    requests_per_s: Math.round(done / seconds),
    latency_p50_ms: round2(percentile(sorted, 50)),
    latency_p90_ms: round2(percentile(sorted, 90)),
    latency_p99_ms: round2(percentile(sorted, 99)),
    latency_max_ms: round2(sorted[sorted.length - 1] ?? 0),
    latency_avg_ms: round2(sorted.length ? sum / sorted.length : 0),
    response_bytes: done ? Math.round(bytes / done) : 0,
    non_2xx: non2xx,
    errors: errors + (total - done),
    send_lag_p99_ms: round2(percentile(lagsSorted, 99)),
    send_lag_max_ms: round2(lagsSorted[lagsSorted.length - 1] ?? 0),
  };
}

export interface PacedRun {
  type: 'run';
  url: string;
  options: PacedOptions;
}

export interface PacedDone {
  type: 'paced-done';
  result: PacedResult;
}

/**
 * pacedLoad in a child process of its own (compiled, plain node): the bench's parent holds the
 * generated store and runs tsx, and its collections and IPC made requests leave up to 15 ms late
 * (send lag p99 ~7 ms when run in the parent), which the latency, counted from when a request
 * was due, charged to the server.
 */
export async function pacedLoadApart(url: string, options: PacedOptions): Promise<PacedResult> {
  assertLoopback(url);
  const child = await startChild(fileURLToPath(new URL('./paced-child.ts', import.meta.url)), []);
  try {
    const run: PacedRun = { type: 'run', url, options };
    return (await ask<PacedDone>(child.process, run, 'paced-done')).result;
  } finally {
    await stopChild(child.process);
  }
}
