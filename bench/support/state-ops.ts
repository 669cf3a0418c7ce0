/**
 * Whole-state operations on the large store over the control API (docs/control-api.md): reset to
 * the fixture, snapshot save and snapshot restore. Each is timed until its answer; the store
 * write it schedules is then awaited untimed, so one run's write does not slow the next.
 */
import { stats, type Stats } from './stats.js';
import { waitIdle } from './writes.js';

export interface StateOp extends Stats {
  operation: string;
  /** The first run (a reset parses the fixture file then; later ones reuse the parse). */
  first_ms: number;
  /** Median time until the state it made was on disk as well. */
  on_disk_median_ms: number;
}

async function timeOp(operation: string, controlUrl: string, runs: number, send: () => Promise<Response>): Promise<StateOp> {
  const answered: number[] = [];
  const onDisk: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const res = await send();
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${operation} answered ${res.status}`);
    answered.push(performance.now() - started);
    await waitIdle(controlUrl);
    onDisk.push(performance.now() - started);
  }
  const first = answered[0]!;
  return {
    operation,
    first_ms: Math.round(first),
    ...stats(answered.length > 1 ? answered.slice(1) : answered),
    on_disk_median_ms: stats(onDisk).median_ms,
  };
}

export async function stateOps(controlUrl: string, runs: number): Promise<StateOp[]> {
  const post = (path: string, body?: object) =>
    fetch(`${controlUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      ...(body && { body: JSON.stringify(body) }),
    });
  return [
    await timeOp('reset (POST /__emulator/reset)', controlUrl, runs, () => post('/reset')),
    await timeOp('snapshot save (POST /__emulator/snapshots)', controlUrl, runs, () => post('/snapshots', { name: 'bench' })),
    await timeOp('snapshot restore (POST …/snapshots/bench/restore)', controlUrl, runs, () => post('/snapshots/bench/restore')),
  ];
}
